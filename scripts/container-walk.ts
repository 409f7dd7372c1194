// A runner's and the admin's first minutes, in Chromium, against a Pacebeat running elsewhere (the
// container of scripts/container-proof.sh, or any demo-mode installation): sign up in the page, connect the
// simulated Spotify through its consent page (on the app's own address), wait for the first playlist on
// the status page, then the admin's setup page, at a phone's and a desktop's width, with screenshots.
// The first account made here is the admin only on a fresh installation with the embedded PostgreSQL.
//
//   CHROMIUM_PATH=/usr/bin/chromium node scripts/container-walk.ts http://127.0.0.1:48080 /tmp/shots-demo
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
async function signUp(page: Page, email: string, name: string) {
  await page.goto(`${base}/login`);
  await page.getByRole('button', { name: 'Create an account' }).click();
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

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || undefined,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
});
try {
  // The first account of a fresh installation (embedded PostgreSQL) is its admin.
  const first = await walk(browser, WIDTHS[0]!, null);
  await walk(browser, WIDTHS[1]!, null);
  for (const width of WIDTHS) await walk(browser, width, { email: first });
  say('walk done');
} finally {
  await browser.close();
}
