// A fresh installation's first minutes, in Chromium, against a Pacebeat running elsewhere (the containers of
// scripts/container-proof.sh, step 8, or any demo-mode installation at a loopback address): the first
// account and a second one sign up at the same moment, and only the first is the admin; the admin opens
// /admin (the sign-up mode, the runner count), switches to "by invitation", makes an invitation link and
// reads it from the page, and opens the setup page; a runner at 360 px is refused without the link, signs
// up with it, connects the simulated Spotify through its consent page (on the app's own address, under
// /demo/spotify/accounts) and waits for the first playlist; the link used again is refused. Screenshots
// of each step, at 1280 px and 360 px where it matters, go to the folder given.
//
//   CHROMIUM_PATH=/usr/bin/chromium node scripts/container-walk.ts http://127.0.0.1:8225 /tmp/shots
//
// With WALK_SETUP_LINK (the setup link an installation at a public address prints in its log), the public
// address's walk instead: the first account signed up without the link (SIGNUP_MODE=open) is no admin,
// the account made with the setup link is, and the link then says it is spent. WALK_HOST_RULES passes
// Chromium's --host-resolver-rules (e.g. "MAP pace.test 127.0.0.1"); certificate errors are ignored
// (Caddy's `tls internal`).
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
import { SIGNUP_TEXTS } from '../packages/contract/src/admin.rules.ts';

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
  // A signed-in page's header has the account menu (loaded lazily): wait for it, so that it is in the picture.
  const where = new URL(page.url()).pathname;
  if (!where.startsWith('/login') && !where.startsWith('/demo/'))
    await page
      .getByRole('button', { name: /^Account: / })
      .waitFor({ timeout: 15_000 })
      .catch(() => say(`${name}: no account menu in the header after 15 s`));
  const file = path.join(outDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  say(`screenshot ${file}`);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > 1.5 * page.viewportSize()!.height)
    await page.screenshot({ path: path.join(outDir, `${name}-screen.png`), animations: 'disabled' });
}

/** Fills in the sign-in page's sign-up form (opened with an invitation link, or from "Create an account"). */
async function fillSignUp(page: Page, email: string, name: string, invitation?: string) {
  // With an invitation link (sign-up by invitation, issue 33) the page opens on "Create account".
  await page.goto(invitation ?? `${base}/login`);
  if (!invitation) await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('First & last name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Choose password').fill(PASSWORD);
}

/** Sends the filled-in form; ends wherever the app sends a new account (not the sign-in page). */
async function submitSignUp(page: Page) {
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 30_000 });
  // A new runner is sent on to the connect page (in demo mode); wait for it, and for its heading.
  await page.waitForURL(/\/connect\/spotify/, { timeout: 15_000 }).catch(() => undefined);
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 30_000 });
}

async function signUp(page: Page, email: string, name: string, invitation?: string) {
  await fillSignUp(page, email, name, invitation);
  await submitSignUp(page);
}

/** An API call from the page itself (the browser resolves the host as it was told to; Node would not). */
async function api(page: Page, method: string, apiPath: string, body?: unknown) {
  return page.evaluate(
    async ([method, url, body]) => {
      const res = await fetch(url, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
    },
    [method, `${base}${apiPath}`, body] as const,
  );
}

async function whoami(page: Page) {
  const res = await api(page, 'GET', '/api/whoami');
  const user = (res.body as { data: { user: { email: string; is_admin: boolean } | null } }).data.user;
  if (!user) throw new Error(`whoami: not signed in (${res.status})`);
  return user;
}

/** A new browser (context) at a width, its console errors collected. */
async function newPage(browser: Browser, width: (typeof WIDTHS)[number]) {
  const context = await browser.newContext({ viewport: width.viewport, ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  const done = async (name: string) => {
    if (problems.length) say(`${name}: console errors: ${problems.join(' | ')}`);
    await context.close();
  };
  return { context, page, done };
}

/** The same page at both widths (the page is reloaded at each, as a phone would open it). */
async function shotBoth(page: Page, name: string, ready: () => Promise<unknown>) {
  for (const width of [WIDTHS[1]!, WIDTHS[0]!]) {
    await page.setViewportSize(width.viewport);
    await page.reload();
    await ready();
    await shot(page, `${name}-${width.name}`);
  }
}

/** From the connect page through the simulated consent page to the first playlist on the status page. */
async function connectDemo(page: Page, name: string, narrow: boolean) {
  if (!new URL(page.url()).pathname.startsWith('/connect/spotify'))
    await page.goto(`${base}/connect/spotify`);
  const connect = page.getByRole('button', { name: 'Connect to Spotify' });
  await connect.and(page.locator(':enabled')).waitFor({ timeout: 30_000 });
  await shot(page, `${name}-connect`);
  await connect.click();
  await page.waitForURL(/\/authorize\?/, { timeout: 30_000 });
  const consent = new URL(page.url());
  say(`${name}: consent page at ${consent.origin}${consent.pathname}`);
  if (consent.origin !== new URL(base).origin) throw new Error(`the consent page is not on ${base}`);
  if (!consent.pathname.startsWith('/demo/spotify/accounts/'))
    throw new Error('not under /demo/spotify/accounts');
  await shot(page, `${name}-consent`);
  await page.locator('#accept').click();
  await page.getByText('Spotify connected successfully.').waitFor({ timeout: 30_000 });
  const connected = Date.now();
  say(`${name}: Spotify connected`);
  await shot(page, `${name}-connected`);
  await page.getByRole('button', { name: 'Proceed' }).click();
  await page.waitForURL(`${base}/`);
  // The status page: the first playlist gets its Spotify link once its first tracks are placed.
  const targets = page.getByRole(narrow ? 'list' : 'table', { name: 'Target playlists' });
  await targets.waitFor({ timeout: 30_000 });
  const links = targets.getByRole('link', { name: /^Spotify/ });
  await links.first().waitFor({ timeout: 300_000 });
  say(
    `${name}: first playlist on the status page ${((Date.now() - connected) / 1000).toFixed(1)} s after connecting (${await links.count()} with a link)`,
  );
  await shot(page, `${name}-status`);
}

/** Chooses a sign-up mode on /admin (the page is open), and sees it kept after a reload. */
async function chooseMode(page: Page, label: 'Open' | 'By invitation' | 'Closed') {
  const radio = page
    .getByRole('radiogroup', { name: 'Sign-up' })
    .getByRole('radio', { name: new RegExp(`^${label}`) });
  if (await radio.isChecked()) return;
  await radio.click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: 30_000 });
  await page.reload();
  await radio.waitFor();
  if (!(await radio.isChecked())) throw new Error(`/admin: "${label}" is not kept after a reload`);
}

/** The mode checked on /admin and the counts it shows. */
async function adminFigures(page: Page) {
  const checked = page.getByRole('radiogroup', { name: 'Sign-up' }).getByRole('radio', { checked: true });
  await checked.waitFor({ timeout: 30_000 });
  const mode = await checked.getAttribute('value');
  const runners = await page
    .getByText(/runners? (have their Spotify connected|connected to the simulated)/)
    .innerText();
  const accounts = await page.getByText(/accounts? on this Pacebeat/).innerText();
  return `mode ${mode}; ${runners} ${accounts}`;
}

/** The loopback walk (a fresh installation at 127.0.0.1, as compose.yaml serves it): steps a to e. */
async function loopbackWalk(browser: Browser) {
  // a. Two accounts sign up at the same moment: the first made is the admin, the other is not.
  const one = await newPage(browser, WIDTHS[0]!);
  const two = await newPage(browser, WIDTHS[1]!);
  const emails = [
    `one-1280-${randomUUID().slice(0, 6)}@example.org`,
    `two-360-${randomUUID().slice(0, 6)}@example.org`,
  ];
  await fillSignUp(one.page, emails[0]!, 'Ada One');
  await shot(one.page, 'a-signup-1280');
  await fillSignUp(two.page, emails[1]!, 'Sam Two');
  await Promise.all([submitSignUp(one.page), submitSignUp(two.page)]);
  const users = [await whoami(one.page), await whoami(two.page)];
  say(`a: signed up at the same moment: ${users.map((u) => `${u.email} is_admin ${u.is_admin}`).join(', ')}`);
  if (users.filter((u) => u.is_admin).length !== 1)
    throw new Error('not exactly one of the two is the admin');
  const [admin, other] = users[0]!.is_admin ? [one, two] : [two, one];
  const adminEmail = users[0]!.is_admin ? emails[0]! : emails[1]!;
  await shot(other.page, 'a-not-admin-after-signup');
  const denied = await api(other.page, 'GET', '/api/admin/signup');
  say(`a: the other account asks /api/admin/signup: ${denied.status}`);
  await other.done('a-not-admin');
  await admin.page.setViewportSize(WIDTHS[0]!.viewport);
  await shot(admin.page, 'a-admin-after-signup-1280');

  // b. /admin from the account menu: the mode and the runner count; "by invitation"; a link.
  const page = admin.page;
  await page.goto(`${base}/`);
  await page.getByRole('button', { name: /^Account: / }).click();
  await page.getByRole('menuitem', { name: 'Runners and sign-up' }).click();
  await page.waitForURL(/\/admin$/);
  say(`b: /admin: ${await adminFigures(page)}`);
  await shot(page, 'b-admin-before-1280');
  await chooseMode(page, 'By invitation');
  say(`b: switched: ${await adminFigures(page)}`);
  await page.getByRole('button', { name: 'Make an invitation link' }).click();
  const made = page.getByRole('status').filter({ hasText: 'The invitation link (shown once):' });
  await made.waitFor({ timeout: 30_000 });
  const link = (await made.locator('code').textContent())!.trim();
  if (!link.startsWith(`${base}/login?invite=`))
    throw new Error(`the invitation link ${link} is not on ${base}`);
  say(`b: invitation link read from the page: ${link.replace(/invite=.*/, 'invite=<43 characters>')}`);
  await shot(page, 'b-admin-link-1280');
  await page.setViewportSize(WIDTHS[1]!.viewport);
  await shot(page, 'b-admin-link-360');
  await page.setViewportSize(WIDTHS[0]!.viewport);

  // c. The setup page.
  await page.goto(`${base}/setup/spotify`);
  await page.getByRole('heading', { name: /Check with Spotify/ }).waitFor({ timeout: 30_000 });
  say(`c: setup page: ${await page.getByRole('heading', { level: 1 }).innerText()}`);
  await shotBoth(page, 'c-setup', async () => {
    await page.getByRole('heading', { name: /Check with Spotify/ }).waitFor({ timeout: 30_000 });
    // The account menu (loaded lazily) is in the header too.
    await page.getByRole('button', { name: /^Account: / }).waitFor({ timeout: 30_000 });
  });

  // d. A runner at 360 px: refused without the link, signs up with it, connects, the first playlist.
  const runner = await newPage(browser, WIDTHS[1]!);
  await runner.page.goto(`${base}/login`);
  await runner.page.getByText(SIGNUP_TEXTS.inviteOnly).waitFor({ timeout: 30_000 });
  if ((await runner.page.getByRole('button', { name: 'Create an account' }).count()) > 0)
    throw new Error('the sign-in page offers sign-up without an invitation');
  say(`d: without the link the sign-in page says: "${SIGNUP_TEXTS.inviteOnly}"`);
  await shot(runner.page, 'd-runner-no-link-360');
  await runner.page.goto(link);
  await runner.page
    .getByText('You are invited to this Pacebeat: create your account.')
    .waitFor({ timeout: 30_000 });
  await shot(runner.page, 'd-runner-invited-360');
  const runnerEmail = `runner-${randomUUID().slice(0, 6)}@example.org`;
  await signUp(runner.page, runnerEmail, 'Rita Runner', link);
  const me = await whoami(runner.page);
  say(
    `d: signed up with the link as ${me.email}, is_admin ${me.is_admin}, now at ${new URL(runner.page.url()).pathname}`,
  );
  if (me.is_admin) throw new Error('the invited runner is an admin');
  await connectDemo(runner.page, 'd-runner-360', true);
  await runner.done('d-runner');

  // e. The same link again, in another browser: refused, and the page says so.
  const late = await newPage(browser, WIDTHS[1]!);
  await late.page.goto(link);
  await late.page.getByText(SIGNUP_TEXTS.invitationUsed).waitFor({ timeout: 30_000 });
  const reused = await api(late.page, 'POST', '/api/signup', {
    email: `late-${randomUUID().slice(0, 6)}@example.org`,
    name: 'Late',
    password: PASSWORD,
    invitation: new URL(link).searchParams.get('invite'),
  });
  say(
    `e: the link again: the page says "${SIGNUP_TEXTS.invitationUsed}"; a sign-up with it answers ${reused.status}`,
  );
  if (reused.status !== 403) throw new Error('a used invitation was accepted');
  await shot(late.page, 'e-link-again-360');
  await late.done('e');

  // The admin sees the link used, and the runner counted.
  await page.goto(`${base}/admin`);
  await page.getByText(`used by ${runnerEmail}`).waitFor({ timeout: 30_000 });
  say(`e: /admin: the invitation "used by ${runnerEmail}"; ${await adminFigures(page)}`);
  await shot(page, 'e-admin-after-1280');
  await admin.done('admin');
  return adminEmail;
}

/** The public address's walk (behind Caddy, SIGNUP_MODE=open): no admin without the setup link. */
async function publicWalk(browser: Browser, setupLink: string) {
  const first = await newPage(browser, WIDTHS[1]!);
  await first.page.goto(`${base}/login`);
  await shot(first.page, 'f-login-360');
  await signUp(first.page, `first-${randomUUID().slice(0, 6)}@example.org`, 'Fay First');
  const firstUser = await whoami(first.page);
  say(`f: the first account, without the setup link: ${firstUser.email} is_admin ${firstUser.is_admin}`);
  if (firstUser.is_admin)
    throw new Error('the first account at a public address became the admin without the link');
  await shot(first.page, 'f-first-no-admin-360');
  await first.done('f-first');

  const owner = await newPage(browser, WIDTHS[0]!);
  await owner.page.goto(setupLink);
  await owner.page.getByText('This is the setup link of this Pacebeat').waitFor({ timeout: 30_000 });
  await shot(owner.page, 'f-setup-link-1280');
  await signUp(owner.page, `owner-${randomUUID().slice(0, 6)}@example.org`, 'Olga Owner', setupLink);
  const ownerUser = await whoami(owner.page);
  say(
    `f: the account made with the setup link from the log: ${ownerUser.email} is_admin ${ownerUser.is_admin}`,
  );
  if (!ownerUser.is_admin) throw new Error('the setup link did not make the admin');
  await owner.page.goto(`${base}/admin`);
  say(`f: /admin: ${await adminFigures(owner.page)}`);
  await shot(owner.page, 'f-admin-1280');
  await owner.done('f-owner');

  const again = await newPage(browser, WIDTHS[1]!);
  await again.page.goto(setupLink);
  // Used once, it says so as any used invitation does (setupLinkSpent is for one never used, once an
  // admin was made otherwise, e.g. by `npm run admin -- grant`).
  await again.page.getByText(SIGNUP_TEXTS.invitationUsed).waitFor({ timeout: 30_000 });
  say(`f: the setup link again: "${SIGNUP_TEXTS.invitationUsed}"`);
  await shot(again.page, 'f-setup-link-again-360');
  await again.done('f-again');
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
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--ignore-certificate-errors',
    ...(process.env.WALK_HOST_RULES ? [`--host-resolver-rules=${process.env.WALK_HOST_RULES}`] : []),
  ],
});
try {
  if (process.env.WALK_SETUP_LINK) await publicWalk(browser, process.env.WALK_SETUP_LINK);
  else {
    const adminEmail = await loopbackWalk(browser);
    if (real) {
      await leaveDemo(browser, adminEmail);
      // A runner at 360 px, connected to the real Spotify now, with an invitation the admin makes.
      const context = await browser.newContext({ viewport: WIDTHS[1]!.viewport });
      const page = await context.newPage();
      const adminContext = await browser.newContext();
      const login = await adminContext.request.post(`${base}/api/login`, {
        data: { provider: 'local', email: adminEmail, password: PASSWORD },
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
  }
  say('walk done');
} finally {
  await browser.close();
}
