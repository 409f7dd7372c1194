import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { SIGNUP_TEXTS } from '@pacebeat/contract/rules';
import { SETUP_ADMIN_EMAIL } from '../../playwright.setup.config.ts';
import { PASSWORD, scrollsSideways } from '../support.ts';

// Who may sign up, through the pages. The admin sets sign-up to "by invitation" on
// /admin and makes a link; a runner in another browser is refused without it and signs up with it; the
// link does not work twice; with sign-up closed the sign-in page says so. Here, not in the main browser
// run: the sign-up mode is the whole installation's, and the main run's tests sign up all the time.
// (After setup-spotify.setup.ts, whose admin is this installation's first account; alone, this test's
// admin is the first account, so the admin either way.)

const shotsDir = () => process.env.SHOTS_DIR ?? test.info().outputDir;

/** No serious or critical axe violation, no sideways scrolling at 360 px, and a screenshot at both widths. */
async function check(page: Page, name: string) {
  fs.mkdirSync(shotsDir(), { recursive: true });
  const severe = (await new AxeBuilder({ page }).analyze()).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, targets: v.nodes.map((n) => n.target.join(' ')) }));
  expect(severe, `serious or critical axe violations (${name})`).toEqual([]);
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: width < 600 ? 740 : 800 });
    await page.waitForTimeout(300);
    expect(await scrollsSideways(page), `${name} at ${width} px scrolls sideways`).toBe(false);
    await page.screenshot({ path: path.join(shotsDir(), `signup-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function chooseMode(page: Page, label: 'Open' | 'By invitation' | 'Closed') {
  const radio = page
    .getByRole('radiogroup', { name: 'Sign-up' })
    .getByRole('radio', { name: new RegExp(`^${label}`) });
  // A real-Spotify installation (after the setup test) is by invitation already: nothing to save then.
  if (await radio.isChecked()) return;
  await radio.click();
  await expect(radio).toBeChecked();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await page.reload();
  await expect(radio).toBeChecked();
}

test('by invitation and closed, through the pages: a link works once; the sign-in page says who may sign up', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  // The admin: the installation's first account (signed up here, or by the setup test before).
  const signup = await page.request.post('/api/signup', {
    data: { email: SETUP_ADMIN_EMAIL, name: 'Ada Admin', password: PASSWORD },
  });
  if (!signup.ok()) {
    const login = await page.request.post('/api/login', {
      data: { provider: 'local', email: SETUP_ADMIN_EMAIL, password: PASSWORD },
    });
    expect(login.ok(), await login.text()).toBe(true);
  }

  // The account menu leads to the admin page.
  await page.goto('/');
  await page.getByRole('button', { name: /^Account: / }).click();
  await page.getByRole('menuitem', { name: 'Runners and sign-up' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Runners and sign-up' })).toBeVisible();
  await expect(
    page.getByText(/runners? (have their Spotify connected|connected to the simulated)/),
  ).toBeVisible();

  await chooseMode(page, 'By invitation');
  await page.getByRole('button', { name: 'Make an invitation link' }).click();
  const made = page.getByRole('status').filter({ hasText: 'The invitation link (shown once):' });
  await expect(made).toBeVisible();
  const link = (await made.locator('code').textContent())!.trim();
  expect(link).toMatch(new RegExp(`^${baseURL}/login\\?invite=[A-Za-z0-9_-]{43}$`));
  await check(page, 'admin');

  // A runner in another browser: no sign-up without the link.
  const runnerContext = await browser.newContext();
  const runner = await runnerContext.newPage();
  await runner.goto('/login');
  await expect(runner.getByText(SIGNUP_TEXTS.inviteOnly)).toBeVisible();
  await expect(runner.getByRole('button', { name: 'Create an account' })).toHaveCount(0);
  await check(runner, 'invite-only');

  // With the link: the page opens on sign-up, and the account is made.
  const email = `e2e-invited-${randomUUID().slice(0, 8)}@example.org`;
  await runner.goto(link);
  await expect(runner.getByText('You are invited to this Pacebeat: create your account.')).toBeVisible();
  await expect(runner.getByRole('heading', { name: 'Create account' })).toBeVisible();
  await check(runner, 'invited');
  await runner.getByLabel('Email').fill(email);
  await runner.getByLabel('First & last name').fill('Ivy Invited');
  await runner.getByLabel('Choose password').fill(PASSWORD);
  await runner.getByRole('button', { name: 'Sign up' }).click();
  // Signed in, the runner leaves the sign-in page for / — which sends a runner without a connected Spotify
  // on to /connect/spotify (after the setup test, this installation talks to a real Spotify): either is right.
  await expect(runner).toHaveURL(new RegExp(`^${baseURL}/(connect/spotify)?$`));
  const me = (await (await runner.request.get('/api/whoami')).json()) as {
    data: { user: { email: string; is_admin: boolean } };
  };
  expect(me.data.user).toMatchObject({ email, is_admin: false });
  await runnerContext.close();

  // The same link a second time: it says so, and a sign-up with it is refused.
  const lateContext = await browser.newContext();
  const late = await lateContext.newPage();
  await late.goto(link);
  await expect(late.getByText(SIGNUP_TEXTS.invitationUsed)).toBeVisible();
  await expect(late.getByRole('button', { name: 'Create an account' })).toHaveCount(0);
  const reused = await late.request.post('/api/signup', {
    data: {
      email: `e2e-late-${randomUUID().slice(0, 8)}@example.org`,
      name: 'Late',
      password: PASSWORD,
      invitation: new URL(link).searchParams.get('invite'),
    },
  });
  expect(reused.status()).toBe(403);

  // The admin sees it used, and closes sign-up.
  await page.reload();
  await expect(page.getByText(`used by ${email}`)).toBeVisible();
  await chooseMode(page, 'Closed');
  await late.goto('/login');
  await expect(late.getByText(SIGNUP_TEXTS.closed)).toBeVisible();
  await expect(late.getByRole('button', { name: 'Create an account' })).toHaveCount(0);
  await check(late, 'closed');
  await lateContext.close();

  // Back to invitations, as a real-Spotify installation starts.
  await chooseMode(page, 'By invitation');
});
