import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { sandboxAdmin, sandboxAdminHeaders } from './support.ts';

// Spotify connect and disconnect in Chromium, in demo mode: the server runs the simulated Spotify
// in-process (no SPOTIFY_CLIENT_ID), and the browser goes through its consent page.

async function signUp(page: Page) {
  const email = `e2e-spotify-${randomUUID()}@example.org`;
  const res = await page.request.post('/api/signup', {
    data: { email, name: 'E2E Runner', password: 'stride170' },
  });
  expect(res.ok()).toBe(true);
  return email;
}

/** A fresh simulated Spotify user, so parallel tests never claim the same account. */
async function newSpotifyUser(page: Page, admin: string) {
  const res = await page.request.post(`${admin}/users`, {
    headers: sandboxAdminHeaders,
    data: { username: `e2e${randomUUID().slice(0, 8)}` },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function whoamiSpotify(page: Page) {
  const res = await page.request.get('/api/whoami');
  const body = (await res.json()) as {
    data: { services: Record<string, { connected: boolean }>; disabled_services: unknown[] };
  };
  return body.data;
}

async function consent(page: Page, spotifyUser: string, action: 'accept' | 'cancel') {
  await page.goto('/connect/spotify');
  await expect(page.getByRole('heading', { name: 'Welcome!' })).toBeVisible();
  await expect(page.getByText('Demo mode')).toBeVisible();
  await page.getByRole('button', { name: 'Connect to Spotify' }).click();
  await expect(page).toHaveURL(/\/spotify\/accounts\/authorize\?/);
  await page.locator('#user').selectOption(spotifyUser);
  await page.locator(`#${action}`).click();
}

test('connect through the consent page, Proceed, then disconnect', async ({ page }) => {
  await signUp(page);
  const admin = await sandboxAdmin(page);
  const spotifyUser = await newSpotifyUser(page, admin);

  await consent(page, spotifyUser, 'accept');
  // A connect waits up to 12 s for a free call when Spotify's window is full (CONNECT_WAIT_MAX_MS).
  await expect(page.getByText('Spotify connected successfully.')).toBeVisible({ timeout: 40_000 });
  expect(new URL(page.url()).search).toBe(''); // code and state removed
  expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual([]); // verifier and client id removed
  expect((await whoamiSpotify(page)).services['spotify']?.connected).toBe(true);
  await page.getByRole('button', { name: 'Proceed' }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/disconnect/spotify');
  await page.getByRole('button', { name: 'Disconnect from Spotify' }).click();
  await expect(
    page.getByText('You disconnected our service from Spotify. Feel free to come back and connect again :-)'),
  ).toBeVisible();
  expect((await whoamiSpotify(page)).services['spotify']?.connected).toBe(false);
  await page.getByRole('button', { name: 'Proceed' }).click();
  await expect(page).toHaveURL(/\/(connect\/spotify)?$/);
});

test('cancel on the consent page shows the error view', async ({ page }) => {
  await signUp(page);
  const admin = await sandboxAdmin(page);
  const spotifyUser = await newSpotifyUser(page, admin);
  await consent(page, spotifyUser, 'cancel');
  await expect(
    page.getByText(
      'There was an error connecting to Spotify. Most probably you did not accepted the permissions.',
    ),
  ).toBeVisible();
  expect(new URL(page.url()).search).toBe('');
  expect((await whoamiSpotify(page)).services['spotify']?.connected).toBe(false);
  await page.getByRole('button', { name: 'Proceed' }).click();
  await expect(page).toHaveURL(/\/(connect\/spotify)?$/);
});
