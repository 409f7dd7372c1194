import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import {
  REAL_ADMIN_TOKEN,
  REAL_CLIENT_ID,
  REAL_SPOTIFY,
  SETUP_ADMIN_EMAIL,
} from '../../playwright.setup.config.ts';
import { PASSWORD, scrollsSideways } from '../support.ts';

// Setup in the browser: a new admin in demo mode finds the setup page from the status page, follows it,
// and Pacebeat is on a (simulated) real Spotify without a restart: the checks report what Spotify says
// (a refused redirect URI, an unlisted account, then all well), and the admin connects their real account.

const shotsDir = () => process.env.SHOTS_DIR ?? test.info().outputDir;
const realAdmin = { authorization: `Bearer ${REAL_ADMIN_TOKEN}` };

/**
 * Full-page screenshots at a desktop's and a phone's width; no sideways scrolling at either, and no serious
 * or critical accessibility violation (axe-core, as e2e/a11y.spec.ts checks the other pages).
 */
async function shoot(page: Page, name: string) {
  fs.mkdirSync(shotsDir(), { recursive: true });
  await page.waitForTimeout(400); // a dialog's fade ends first: axe reads the colours of the moment
  const severe = (await new AxeBuilder({ page }).analyze()).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, targets: v.nodes.map((n) => n.target.join(' ')) }));
  expect(severe, `serious or critical axe violations on the setup page (${name})`).toEqual([]);
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: width < 600 ? 740 : 800 });
    await page.waitForTimeout(300);
    expect(await scrollsSideways(page), `${name} at ${width} px scrolls sideways`).toBe(false);
    await page.screenshot({ path: path.join(shotsDir(), `setup-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A user of the stand-in Spotify; on the app's user list unless `registered` is false. */
async function realSpotifyUser(page: Page, registered = true) {
  const res = await page.request.post(`${REAL_SPOTIFY}/admin/users`, {
    headers: realAdmin,
    data: { username: `e2e${randomUUID().slice(0, 8)}` },
  });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  if (!registered) {
    const off = await page.request.put(`${REAL_SPOTIFY}/admin/users/${id}/registration`, {
      headers: realAdmin,
      data: { registered: false, clientId: REAL_CLIENT_ID },
    });
    expect(off.ok(), await off.text()).toBe(true);
  }
  return id;
}

/** The redirect URIs the stand-in Spotify has registered for the app (as the dashboard would). */
async function registerRedirects(page: Page, uris: string[]) {
  const res = await page.request.put(`${REAL_SPOTIFY}/admin/config`, {
    headers: realAdmin,
    data: { redirectUris: { [REAL_CLIENT_ID]: uris } },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** Runs the check; in Spotify's window, accepts as `user`; returns that window when one opened. */
async function runCheck(page: Page, user?: string) {
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Check with Spotify' }).click();
  const win = await popup;
  if (!user) return win;
  await expect(win).toHaveURL(/\/spotify\/accounts\/authorize\?/, { timeout: 20_000 });
  await win.locator('#user').selectOption(user);
  await win.locator('#accept').click();
  await expect(win.getByRole('heading', { name: 'Spotify check' })).toBeVisible();
  return win;
}

test('from demo mode to a real Spotify, without a restart', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const redirectUri = `${baseURL}/connect/spotify`;

  // The admin signs up and, in demo mode, connects the simulated Spotify (demo playlists follow).
  const signup = await page.request.post('/api/signup', {
    data: { email: SETUP_ADMIN_EMAIL, name: 'Ada Admin', password: PASSWORD },
  });
  expect(signup.ok(), await signup.text()).toBe(true);
  await page.goto('/connect/spotify');
  await page.getByRole('button', { name: 'Connect to Spotify' }).click();
  await expect(page).toHaveURL(/\/spotify\/accounts\/authorize\?/, { timeout: 20_000 });
  await page.locator('#accept').click();
  await expect(page.getByText('Spotify connected successfully.')).toBeVisible({ timeout: 20_000 });

  // The status page: the demo banner carries the admin's way to the setup page.
  await page.goto('/');
  const banner = page.getByRole('status', { name: 'Demo mode' });
  await expect(banner).toBeVisible();
  await banner.getByRole('link', { name: 'Set up a real Spotify' }).click();
  await expect(page).toHaveURL(/\/setup\/spotify$/);
  await expect(page.getByRole('heading', { name: 'Connect a real Spotify' })).toBeVisible();
  await expect(page.getByText('Pacebeat runs in demo mode')).toBeVisible();

  // The redirect URI to paste, copied to the clipboard.
  await page.getByRole('button', { name: `Copy ${redirectUri}` }).click();
  await expect(page.getByRole('button', { name: `Copied ${redirectUri}` })).toHaveText('Copied');
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(redirectUri);
  await expect(page.getByText('Save a client id first')).toBeVisible();
  await shoot(page, 'demo');

  // Leaving demo mode: confirmed in a dialog that says what happens to demo data.
  await page.getByRole('textbox', { name: 'Client ID' }).fill(REAL_CLIENT_ID);
  await page.getByRole('button', { name: 'Leave demo mode and use this client id' }).click();
  const dialog = page.getByRole('dialog', { name: 'Leave demo mode?' });
  await expect(dialog).toContainText('their demo playlists existed only in the simulated Spotify');
  await expect(dialog).toContainText('(1 connected)');
  await shoot(page, 'confirm');
  await dialog.getByRole('button', { name: 'Leave demo mode' }).click();
  await expect(page.getByText('Saved. Pacebeat now talks to the real Spotify; 1 simulated')).toBeVisible();
  // The banner follows at once; the page says which app is in force.
  await expect(page.getByRole('status', { name: 'Demo mode' })).toHaveCount(0);
  await expect(
    page.getByText(`Pacebeat uses the Spotify app ${REAL_CLIENT_ID}, saved on this page.`),
  ).toBeVisible();

  // Check 1: the redirect URI is not (yet) registered in the "dashboard": Spotify's words, and what to add.
  await registerRedirects(page, ['https://pace.example.org/connect/spotify']);
  await runCheck(page);
  await expect(page.getByText(`Spotify does not know the redirect URI ${redirectUri}`)).toBeVisible();
  await expect(page.getByText('Spotify says: “INVALID_CLIENT: Invalid redirect URI”').first()).toBeVisible();

  // Check 2: registered now, but the account is not on the user list.
  await registerRedirects(page, [redirectUri]);
  const unlisted = await realSpotifyUser(page, false);
  let win = await runCheck(page, unlisted);
  await expect(win.getByText(/not on the app’s user list/)).toBeVisible();
  await win.close();
  await expect(page.getByRole('alert').filter({ hasText: 'not on the app’s user list' })).toBeVisible();

  // Check 3: an account on the list: all well.
  const listed = await realSpotifyUser(page);
  win = await runCheck(page, listed);
  await expect(win.getByText(/Spotify accepted the redirect URI and the account/)).toBeVisible();
  // The button closes its own window, which can end Playwright's click before the click returns ("Target
  // page … has been closed", seen once in CI): that error is ignored only when the window did close.
  const closed = win.waitForEvent('close');
  await win
    .getByRole('button', { name: 'Close this window' })
    .click({ noWaitAfter: true })
    .catch((err: unknown) => {
      if (!win.isClosed()) throw err;
    });
  await closed;
  await expect(page.getByText(/Spotify accepted the redirect URI and the account/)).toBeVisible();
  await shoot(page, 'real');

  // The status page follows: the demo connection ended, so the admin is asked to connect, for real now.
  await page.goto('/');
  await expect(page).toHaveURL(/\/connect\/spotify$/);
  await expect(page.getByRole('status', { name: 'Demo mode' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Connect to Spotify' }).click();
  await expect(page).toHaveURL(new RegExp(`^${REAL_SPOTIFY}/spotify/accounts/authorize\\?`), {
    timeout: 20_000,
  });
  await page.locator('#user').selectOption(listed);
  await page.locator('#accept').click();
  await expect(page.getByText('Spotify connected successfully.')).toBeVisible({ timeout: 20_000 });
  const who = (await (await page.request.get('/api/whoami')).json()) as {
    data: { services: { spotify: { connected: boolean; demo: boolean } } };
  };
  expect(who.data.services.spotify).toMatchObject({ connected: true, demo: false });
});
