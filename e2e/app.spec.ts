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

test('the footer credits GetSongBPM, whose data demo mode uses (the simulated one, with its key)', async ({
  page,
}) => {
  const credits = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/tempo/credits');
  await page.goto('/about');
  const reply = await credits;
  expect(reply.status()).toBe(200);
  expect(await reply.json()).toEqual({ data: { getsongbpm: true } });
  const link = page.getByRole('contentinfo').getByRole('link', { name: 'Tempo data from GetSongBPM' });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', 'https://getsongbpm.com');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener');
});

test('/about#terms and /about#privacy (the sign-in widget and connect page link there) land on their sections', async ({
  page,
}) => {
  for (const [hash, title] of [
    ['#terms', 'Terms of service'],
    ['#privacy', 'Privacy policy'],
  ] as const) {
    await page.goto(`/about${hash}`);
    const heading = page.getByRole('heading', { name: title });
    await expect(heading).toBeInViewport();
    await expect(page.locator(hash)).toContainText(title);
  }
});
