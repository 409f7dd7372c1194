import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { expect, type Locator, type Page } from '@playwright/test';
import { sandboxAdminHeaders, sandboxPortOf } from './server.ts';

export { sandboxAdminHeaders };

// Shared steps of the status-page and walk-through tests (demo mode: the simulated Spotify in-process).

export const PASSWORD = 'stride170';
/** The admin of the browser tests: granted with `npm run admin` (ADMIN_EMAILS needs a verified address). */
export const ADMIN_EMAIL = 'e2e-admin@example.org';
/** Both widths the issue asks for: a desktop and a phone. */
export const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 360, height: 780 } },
] as const;

export const uniqueEmail = (tag: string) => `e2e-${tag}-${randomUUID().slice(0, 8)}@example.org`;

/** A new local account through the API (the browser keeps its session cookie). */
export async function signUpByApi(page: Page, email = uniqueEmail('runner'), name = 'Ria Runner') {
  const res = await page.request.post('/api/signup', { data: { email, name, password: PASSWORD } });
  expect(res.ok(), await res.text()).toBe(true);
  return email;
}

/**
 * `npm run admin -- grant EMAIL` on the server under test, as an operator runs it: it finds the
 * running embedded PostgreSQL of the server's data folder (E2E_DATA_DIR, set by playwright.config.ts).
 */
export function grantAdmin(email: string) {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  execFileSync(process.execPath, ['apps/server/src/app/admin-cli.ts', 'grant', email], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'pipe',
  });
}

/** Signs in as the admin, creating the account on first use (tests run in parallel), and grants it admin. */
export async function signInAsAdmin(page: Page) {
  const signup = await page.request.post('/api/signup', {
    data: { email: ADMIN_EMAIL, name: 'Ada Admin', password: PASSWORD },
  });
  if (!signup.ok()) {
    const login = await page.request.post('/api/login', {
      data: { provider: 'local', email: ADMIN_EMAIL, password: PASSWORD },
    });
    expect(login.ok(), await login.text()).toBe(true);
  }
  grantAdmin(ADMIN_EMAIL);
  await expect
    .poll(
      async () => ((await (await page.request.get('/api/whoami')).json()) as WhoamiLike).data.user?.is_admin,
    )
    .toBe(true);
}

interface WhoamiLike {
  data: { user: { is_admin: boolean } | null };
}

/**
 * The simulated Spotify's admin API: the in-process world of the server under test (demo mode). Every call
 * to it carries `headers: sandboxAdminHeaders` (it answers 401 without its token).
 */
export async function sandboxAdmin(page: Page) {
  const res = await page.request.get('/api/spotify/connect_data');
  const { data } = (await res.json()) as { data: { demo: boolean } };
  expect(data.demo).toBe(true);
  return `http://127.0.0.1:${sandboxPortOf(Number(new URL(res.url()).port))}/admin`;
}

/** A playlist of a simulated user, as the world's admin API lists it. */
export interface SpotifyPlaylist {
  id: string;
  name: string;
}

/** The simulated user's playlists (theirs and those they follow). */
export async function spotifyPlaylists(page: Page, admin: string, user: string): Promise<SpotifyPlaylist[]> {
  const res = await page.request.get(`${admin}/users/${user}`, { headers: sandboxAdminHeaders });
  return ((await res.json()) as { playlists: SpotifyPlaylist[] }).playlists;
}

/** A playlist's tracks in order, counted from outside (episodes and unavailable items left out). */
export async function playlistTrackIds(page: Page, admin: string, playlistId: string): Promise<string[]> {
  const res = await page.request.get(`${admin}/playlists/${playlistId}/items`, {
    headers: sandboxAdminHeaders,
  });
  return ((await res.json()) as { trackIds: Array<string | null> }).trackIds.filter((x): x is string => !!x);
}

/** A fresh simulated Spotify user (on the app's user list unless `registered` is false). */
export async function newSpotifyUser(page: Page, opts: { registered?: boolean; liked?: number } = {}) {
  const admin = await sandboxAdmin(page);
  const res = await page.request.post(`${admin}/users`, {
    headers: sandboxAdminHeaders,
    data: { username: `e2e${randomUUID().slice(0, 8)}`, ...(opts.liked ? { liked: opts.liked } : {}) },
  });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  if (opts.registered === false) {
    const off = await page.request.put(`${admin}/users/${id}/registration`, {
      headers: sandboxAdminHeaders,
      data: { registered: false },
    });
    expect(off.ok()).toBe(true);
  }
  return id;
}

/** From /connect/spotify through the simulated consent page, accepting as `spotifyUser`. */
export async function connectThroughConsent(page: Page, spotifyUser: string) {
  await page.goto('/connect/spotify');
  const button = page.getByRole('button', { name: 'Connect to Spotify' });
  const consent = /\/spotify\/accounts\/authorize\?/;
  // The simulated Spotify's consent page: a navigation to another server, slow on a loaded machine. A click
  // can miss on such a machine (CI twice: clicked as the page's header and notices were still settling,
  // the button stayed enabled and nothing was requested): while the button is still there and enabled
  // (a click that landed disables it until the page leaves), click again, as a person would.
  await button.click();
  await expect(async () => {
    if (!consent.test(page.url()) && (await button.isEnabled({ timeout: 1_000 }).catch(() => false)))
      await button.click({ timeout: 5_000 });
    await expect(page).toHaveURL(consent, { timeout: 5_000 });
  }).toPass({ timeout: 30_000, intervals: [0] });
  await page.locator('#user').selectOption(spotifyUser);
  await page.locator('#accept').click();
}

/** True when the page is wider than the window (it would scroll sideways). */
/** The texts of the form labels inside `scope` that their box cuts short (an ellipsis shows instead). */
export const cutLabels = (scope: Locator) =>
  scope
    .locator('label')
    .evaluateAll((labels) =>
      labels.filter((l) => l.scrollWidth > l.clientWidth + 1).map((l) => l.textContent),
    );

export const scrollsSideways = (page: Page) =>
  page.evaluate('document.documentElement.scrollWidth > window.innerWidth + 1') as Promise<boolean>;
