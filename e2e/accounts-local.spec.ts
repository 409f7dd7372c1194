import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';

// Local accounts end to end (embedded mode, no SMTP: a new account is signed in at once).
const PASSWORD = 'stride170';
/** Sign-in goes to /; the status page sends a user without a connected music service on to /connect/spotify. */
const SIGNED_IN_LANDING = /^http:\/\/127\.0\.0\.1:\d+\/(connect\/spotify)?$/;

async function signUp(page: Page, email: string) {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('First & last name').fill('E2E Runner');
  await page.getByLabel('Choose password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(SIGNED_IN_LANDING);
}

test('sign up, log out, log in, ping, and the wrong-password message', async ({ page }) => {
  const email = `e2e-${randomUUID()}@example.org`;
  await signUp(page, email);
  // Log out sits in the account menu of the header.
  await page.getByRole('button', { name: 'Account: E2E Runner' }).click();
  await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.goto('/ping');
  await expect(page.getByRole('button', { name: `pong, ${email}` })).toBeVisible();

  // Already signed in: /login goes straight back to /.
  await page.goto('/login');
  await expect(page).toHaveURL(SIGNED_IN_LANDING);

  await page.goto('/logout');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Log in or register' })).toBeVisible();
  await page.goto('/ping');
  await expect(page.getByRole('button', { name: `pong, ${email}` })).toHaveCount(0);

  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not-my-password1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText("The email and password you entered don't match")).toBeVisible();

  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(SIGNED_IN_LANDING);
  await page.goto('/ping');
  await expect(page.getByRole('button', { name: `pong, ${email}` })).toBeVisible();
});

test('the form shows the widget texts for empty, malformed and unknown emails and a weak password', async ({
  page,
}) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Enter your email address to continue')).toBeVisible();
  await expect(page.getByText('Enter your password')).toBeVisible();
  await page.getByLabel('Email').fill('runner@nowhere');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText("That email address isn't correct")).toBeVisible();
  await page.getByLabel('Email').fill(`nobody-${randomUUID()}@example.org`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText("That email address doesn't match an existing account")).toBeVisible();

  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Choose password').fill('abcdef');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByText('Enter your account name')).toBeVisible();
  await expect(
    page.getByText('Strong passwords have at least 6 characters and a mix of letters and numbers'),
  ).toBeVisible();
});

test('a cross-origin POST is refused with 403', async ({ request, baseURL }) => {
  const res = await request.post(`${baseURL}/api/login`, {
    headers: { origin: 'https://evil.example' },
    data: { provider: 'local', email: 'x@example.org', password: 'x' },
  });
  expect(res.status()).toBe(403);
});
