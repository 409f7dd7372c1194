// A runner's and the admin's first minutes, in Chromium, against a Pacebeat running elsewhere (the
// container of scripts/container-proof.sh, or any demo-mode installation): sign up in the page, connect the
// simulated Spotify through its consent page (on the app's own address), wait for the first playlist on
// the status page, then the admin's setup page, at a phone's and a desktop's width, with screenshots.
// The first account made here is the admin only on a fresh installation with the embedded PostgreSQL.
//
//   CHROMIUM_PATH=/usr/bin/chromium node scripts/container-walk.ts http://127.0.0.1:48080 /tmp/shots-demo
//
// With REAL_SPOTIFY_URL, REAL_CLIENT_ID and REAL_ADMIN_TOKEN (a simulated world standing in for the real
// Spotify, `npm run sandbox -- --client-id … --admin-token …`, which Pacebeat's SPOTIFY_ACCOUNTS_URL and
// SPOTIFY_API_URL point at), the admin then leaves demo mode on the setup page, registers the redirect URI
// in the stand-in (as in Spotify's dashboard), runs the check, and connects for real; a runner at 360 px
// too; each waits for the first playlist, now in the stand-in "real" Spotify.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type Page } from '@playwright/test';

const [base = 'http://127.0.0.1:8080', outDir = 'walk-shots'] = process.argv.slice(2);
const PASSWORD = 'stride170';
const WIDTHS = [
  { name: '1280', viewport: { width: 1280, height: 900 } },
  { name: '360', viewport: { width: 360, height: 780 } },
];

fs.mkdirSync(outDir, { recursive: true });
const started = Date.now();
const say = (what: string) =>
  console.log(`${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s  ${what}`);

/** The whole page, and (for a long one) the first screen as the runner sees it, readable at 360 px. */
async function shot(page: Page, name: string) {
  const file = path.join(outDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  say(`screenshot ${file}`);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > 1.5 * page.viewportSize()!.height)
    await page.screenshot({ path: path.join(outDir, `${name}-screen.png`), animations: 'disabled' });
}

/** Signs up in the page (the login page's "Create an account"); ends wherever the app sends a new runner. */
async function signUp(page: Page, email: string, name: string, invitation?: string) {
  // With an invitation link (sign-up by invitation, issue 33) the page opens on "Create account".
  await page.goto(invitation ?? `${base}/login`);
  if (!invitation) await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('First & last name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Choose password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL(/\/connect\/spotify/, { timeout: 30_000 });
}

async function walk(browser: Browser, width: (typeof WIDTHS)[number], admin: { email: string } | null) {
  const context = await browser.newContext({ viewport: width.viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  const email = admin?.email ?? `walk-${width.name}-${randomUUID().slice(0, 6)}@example.org`;
  if (admin) {
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  } else {
    await signUp(page, email, `Walker ${width.name}`);
    say(`${width.name}: signed up as ${email}`);
    const connect = page.getByRole('button', { name: 'Connect to Spotify' });
    await connect.and(page.locator(':enabled')).waitFor({ timeout: 30_000 });
    await shot(page, `${width.name}-1-connect`);
    await connect.click();
    await page.waitForURL(/\/authorize\?/, { timeout: 30_000 });
    const consent = new URL(page.url());
    say(`${width.name}: consent page at ${consent.origin}${consent.pathname}`);
    if (consent.origin !== new URL(base).origin) throw new Error(`the consent page is not on ${base}`);
    await shot(page, `${width.name}-2-consent`);
    await page.locator('#accept').click();
    await page.getByText('Spotify connected successfully.').waitFor({ timeout: 30_000 });
    say(`${width.name}: Spotify connected`);
    await shot(page, `${width.name}-3-connected`);
    await page.getByRole('button', { name: 'Proceed' }).click();
    await page.waitForURL(`${base}/`);
  }
  // The status page: the first playlist gets its Spotify link once its first tracks are placed.
  const targets = page.getByRole(width.viewport.width < 600 ? 'list' : 'table', { name: 'Target playlists' });
  await targets.waitFor({ timeout: 30_000 });
  const links = targets.getByRole('link', { name: /^Spotify/ });
  await links.first().waitFor({ timeout: 300_000 });
  say(`${width.name}: first playlist on the status page (${await links.count()} with a link)`);
  await shot(page, `${width.name}-${admin ? 'admin-' : ''}4-status`);
  if (admin) {
    // The admin finds the setup page from the demo banner on the status page.
    await page.getByRole('status', { name: 'Demo mode' }).getByRole('link').click();
    await page.waitForURL(/\/setup\/spotify/);
    // Its last section: the page has its data (the status page's headings may still be on screen before).
    await page.getByRole('heading', { name: /Check with Spotify/ }).waitFor({ timeout: 30_000 });
    say(`${width.name}: setup page: ${await page.getByRole('heading', { level: 1 }).innerText()}`);
    await shot(page, `${width.name}-admin-5-setup`);
  }
  if (problems.length) say(`${width.name}: console errors: ${problems.join(' | ')}`);
  await context.close();
  return email;
}

const real = process.env.REAL_SPOTIFY_URL
  ? {
      url: process.env.REAL_SPOTIFY_URL.replace(/\/$/, ''),
      clientId: process.env.REAL_CLIENT_ID ?? '',
      headers: { authorization: `Bearer ${process.env.REAL_ADMIN_TOKEN ?? ''}` },
    }
  : null;

/** A new listener of the stand-in Spotify with a library, on the app's user list (its admin API). */
async function realListener(page: Page) {
  const res = await page.request.post(`${real!.url}/admin/users`, {
    headers: real!.headers,
    data: { username: `walk${randomUUID().slice(0, 8)}`, liked: 300 },
  });
  if (res.status() !== 201) throw new Error(`stand-in Spotify: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** From the connect page through the stand-in's consent page as `listener`, to the first playlist. */
async function connectForReal(page: Page, name: string, narrow: boolean) {
  const listener = await realListener(page);
  await page.goto(`${base}/connect/spotify`);
  await page.getByRole('button', { name: 'Connect to Spotify' }).click();
  await page.waitForURL(new RegExp(`^${real!.url}/spotify/accounts/authorize\\?`), { timeout: 30_000 });
  say(`${name}: the real-mode consent page at ${new URL(page.url()).origin}`);
  await page.locator('#user').selectOption(listener);
  await page.locator('#accept').click();
  await page.getByText('Spotify connected successfully.').waitFor({ timeout: 30_000 });
  const connected = Date.now();
  await page.getByRole('button', { name: 'Proceed' }).click();
  await page.waitForURL(`${base}/`);
  if ((await page.getByRole('status', { name: 'Demo mode' }).count()) > 0) throw new Error('still demo mode');
  const targets = page.getByRole(narrow ? 'list' : 'table', { name: 'Target playlists' });
  await targets
    .getByRole('link', { name: /^Spotify/ })
    .first()
    .waitFor({ timeout: 300_000 });
  say(`${name}: first real-mode playlist ${((Date.now() - connected) / 1000).toFixed(1)} s after connecting`);
  await shot(page, `${name}-status`);
}

/** The admin leaves demo mode on the setup page, checks with the stand-in Spotify, and connects for real. */
async function leaveDemo(browser: Browser, adminEmail: string) {
  const context = await browser.newContext({ viewport: WIDTHS[0]!.viewport });
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(adminEmail);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/`);
  await page.goto(`${base}/setup/spotify`);
  await page.getByRole('textbox', { name: 'Client ID' }).fill(real!.clientId);
  await page.getByRole('button', { name: 'Leave demo mode and use this client id' }).click();
  const dialog = page.getByRole('dialog', { name: 'Leave demo mode?' });
  await dialog.waitFor();
  await shot(page, '1280-real-1-confirm');
  await dialog.getByRole('button', { name: 'Leave demo mode' }).click();
  await page.getByText(/^Saved\. Pacebeat now talks to the real Spotify/).waitFor({ timeout: 30_000 });
  say('1280: left demo mode on the setup page (no restart)');
  // As in Spotify's dashboard: the redirect URI the page shows, registered for the app.
  const redirect = `${base}/connect/spotify`;
  const registered = await page.request.put(`${real!.url}/admin/config`, {
    headers: real!.headers,
    data: { redirectUris: { [real!.clientId]: [redirect] } },
  });
  if (!registered.ok()) throw new Error(`stand-in Spotify config: ${registered.status()}`);
  const listener = await realListener(page);
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Check with Spotify' }).click();
  const win = await popup;
  await win.waitForURL(/\/authorize\?/, { timeout: 30_000 });
  await win.locator('#user').selectOption(listener);
  await win.locator('#accept').click();
  await page
    .getByText(/Spotify accepted the redirect URI and the account/)
    .first()
    .waitFor({ timeout: 30_000 });
  await win.close();
  say('1280: the check: Spotify accepted the redirect URI and the account');
  await shot(page, '1280-real-2-setup');
  await connectForReal(page, '1280-real-3', false);
  await context.close();
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || undefined,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
});
try {
  // The first account of a fresh installation (embedded PostgreSQL) is its admin.
  const first = await walk(browser, WIDTHS[0]!, null);
  await walk(browser, WIDTHS[1]!, null);
  for (const width of WIDTHS) await walk(browser, width, { email: first });
  if (real) {
    await leaveDemo(browser, first);
    // A runner of the demo days, at 360 px: connected again, to the real Spotify now.
    const context = await browser.newContext({ viewport: WIDTHS[1]!.viewport });
    const page = await context.newPage();
    // With a real Spotify, sign-up is by invitation (issue 33): the admin makes a link first.
    const adminContext = await browser.newContext();
    const login = await adminContext.request.post(`${base}/api/login`, {
      data: { provider: 'local', email: first, password: PASSWORD },
    });
    if (!login.ok()) throw new Error(`admin sign-in answered ${login.status()}`);
    const invite = await adminContext.request.post(`${base}/api/admin/invitations`, { data: {} });
    if (!invite.ok()) throw new Error(`invitation answered ${invite.status()}: ${await invite.text()}`);
    const { link } = ((await invite.json()) as { data: { link: string } }).data;
    await adminContext.close();
    await signUp(page, `walk-real-${randomUUID().slice(0, 6)}@example.org`, 'Walker Real', link);
    await connectForReal(page, '360-real-3', true);
    await context.close();
  }
  say('walk done');
} finally {
  await browser.close();
}
