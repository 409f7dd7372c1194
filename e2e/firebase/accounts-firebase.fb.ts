import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { EMULATOR_URL, FIREBASE_PROJECT } from '../../playwright.firebase.config.ts';

// The FirebaseUI widget against the Auth emulator: sign up, the unverified-email flow (the code read
// from the emulator's oobCodes endpoint), then a verified sign-in that lands on /.
const PASSWORD = 'stride170';

async function startEmailSignIn(page: Page, email: string) {
  await page.getByRole('button', { name: 'Sign in with email' }).click();
  await page.locator('input[name="email"]').fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
}

test('sign up in the widget, verify the email, then sign in and land on /', async ({ page, request }) => {
  const email = `fb-${randomUUID()}@example.org`;
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Terms of Service' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Privacy Policy' })).toBeVisible();

  await startEmailSignIn(page, email);
  await page.locator('input[name="newPassword"]').fill(PASSWORD);
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(page.getByText('We need to verify your email address.')).toBeVisible();
  await expect(
    page.getByText(
      'Verification email sent. Please check your inbox (or spam folder if necessary), and then log in here again.',
    ),
  ).toBeVisible();

  const codes = (await (
    await request.get(`${EMULATOR_URL}/emulator/v1/projects/${FIREBASE_PROJECT}/oobCodes`)
  ).json()) as {
    oobCodes: { email: string; requestType: string; oobCode: string }[];
  };
  const code = codes.oobCodes.find((c) => c.email === email && c.requestType === 'VERIFY_EMAIL');
  expect(code).toBeDefined();
  const applied = await request.post(
    `${EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:update?key=fake-api-key`,
    {
      data: { oobCode: code!.oobCode },
    },
  );
  expect(applied.ok()).toBe(true);

  await page.getByRole('button', { name: 'Back to login' }).click();
  await startEmailSignIn(page, email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  // Lands on / (whose status page sends a user without a connected music service on to /connect/spotify).
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/(connect\/spotify)?$/);

  await page.goto('/ping');
  await expect(page.getByRole('button', { name: `pong, ${email}` })).toBeVisible();
});

test('a wrong password in the widget shows the widget text', async ({ page, request }) => {
  const email = `fb-${randomUUID()}@example.org`;
  await request.post(`${EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key`, {
    data: { email, password: PASSWORD, returnSecureToken: true },
  });
  await page.goto('/login');
  await startEmailSignIn(page, email);
  await page.locator('input[name="password"]').fill('wrong-password1');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText("The email and password you entered don't match")).toBeVisible();
});
