import { expect, test } from '@playwright/test';
import { PASSWORD, newSpotifyUser, signUpByApi, uniqueEmail } from './support.ts';

// Spotify sends no one back to a `localhost` address (the simulated Spotify refuses one like the real
// one), and a session cookie belongs to one host: Pacebeat opened at http://localhost:PORT moves to
// http://127.0.0.1:PORT before anything else, and the connect flow from there reaches the consent page.

/** The app's address with `localhost` for its name (the server listens on 127.0.0.1). */
const atLocalhost = (baseURL: string | undefined) => baseURL!.replace('//127.0.0.1:', '//localhost:');

test('opened at localhost, the app moves to 127.0.0.1, and connect reaches the consent page', async ({
  page,
  baseURL,
}) => {
  await page.goto(`${atLocalhost(baseURL)}/`);
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByText(/0\.6-3/)).toBeVisible();

  // Signed in at 127.0.0.1 (the address the browser is at now), from a localhost link to connect.
  await signUpByApi(page);
  const spotifyUser = await newSpotifyUser(page);
  await page.goto(`${atLocalhost(baseURL)}/connect/spotify`);
  await expect(page).toHaveURL(`${baseURL}/connect/spotify`);
  await page.getByRole('button', { name: 'Connect to Spotify' }).click();
  // The simulated Spotify's consent page, not its "INVALID_CLIENT: Insecure redirect URI" page.
  await expect(page).toHaveURL(/\/spotify\/accounts\/authorize\?/, { timeout: 40_000 });
  expect(new URL(page.url()).searchParams.get('redirect_uri')).toBe(`${baseURL}/connect/spotify`);
  await expect(page.getByText('INVALID_CLIENT')).toHaveCount(0);
  await page.locator('#user').selectOption(spotifyUser);
  await page.locator('#accept').click();
  await expect(page.getByText('Spotify connected successfully.')).toBeVisible({ timeout: 40_000 });
  expect(new URL(page.url()).origin).toBe(baseURL);
});

test('the API at localhost answers, but never starts a connect Spotify would refuse', async ({
  page,
  baseURL,
}) => {
  const local = atLocalhost(baseURL);
  const signup = await page.request.post(`${local}/api/signup`, {
    headers: { origin: local },
    data: { email: uniqueEmail('localhost'), name: 'Lo Calhost', password: PASSWORD },
  });
  expect(signup.ok(), await signup.text()).toBe(true);
  const res = await page.request.get(`${local}/api/spotify/connect_data`);
  expect(res.status()).toBe(400);
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe('SpotifyRedirectUriRefused');
  expect(body.error.message).toContain(`Open ${baseURL}/connect/spotify instead`);
});
