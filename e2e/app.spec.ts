import { expect, test } from '@playwright/test';

// The production build, served by the real server on a fresh embedded database.

test('the main page greets a visitor with the login button, the About text and the version', async ({
  page,
}) => {
  await page.goto('/');
  await expect(
    page
      .getByRole('link', { name: 'Log in or register' })
      .or(page.getByRole('button', { name: 'Log in or register' })),
  ).toBeVisible();
  await expect(page.getByText(/made by a runner, for runners/i).first()).toBeVisible();
  await expect(page.getByText(/0\.6-3/)).toBeVisible();
});

test('/about shows the About text and a link back to the main page', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByText(/made by a runner, for runners/i).first()).toBeVisible();
  await expect(page.getByText(/beta version/i).first()).toBeVisible();
  await expect(page.getByText(/0\.6-3/)).toBeVisible();
  await page.getByRole('link', { name: 'Back to main page' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('an unknown path lands on the main page', async ({ page }) => {
  await page.goto('/no/such/page?x=1');
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  await expect(page.getByText(/0\.6-3/)).toBeVisible();
});

test('the version and build hash are on every page', async ({ page }) => {
  for (const path of ['/', '/about', '/ping', '/login']) {
    await page.goto(path);
    await expect(page.getByText(/0\.6-3/), path).toBeVisible();
    await expect(page.getByText(/build [0-9a-f]{7,}|build unknown/), path).toBeVisible();
  }
});
