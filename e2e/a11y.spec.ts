import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { sandboxAdmin, sandboxAdminHeaders, signInAsAdmin } from './support.ts';

// Accessibility in Chromium: every route and state of the spec (§2) that the app has, checked with axe-core
// (0 serious or critical violations), the sign-in form used with the keyboard alone, and page titles.
// To cover a new page or state, add an entry to STATES: how to get there, and what shows it is ready.
// A11Y_REPORT=<file> writes every page's violations (all impacts) as JSON lines, for a report.

type Who = 'visitor' | 'user' | 'connected' | 'admin';
interface PageState {
  name: string;
  /** Who opens it: a visitor, a signed-in user without Spotify, one with Spotify connected, or the admin. */
  who: Who;
  /** Opens the page in this state; `goto` unless the state needs steps. */
  open: (page: Page) => Promise<unknown>;
  /** Something that shows the state is on screen. */
  ready: (page: Page) => ReturnType<Page['getByText']>;
}

const PASSWORD = 'stride170';
const goto = (path: string) => (page: Page) => page.goto(path);

const STATES: PageState[] = [
  {
    name: 'visitor /',
    who: 'visitor',
    open: goto('/'),
    ready: (p) => p.getByRole('link', { name: 'Log in or register' }),
  },
  {
    name: '/about',
    who: 'visitor',
    open: goto('/about'),
    ready: (p) => p.getByRole('link', { name: 'Back to main page' }),
  },
  {
    name: '/login sign-in form',
    who: 'visitor',
    open: goto('/login'),
    ready: (p) => p.getByRole('button', { name: 'Sign in' }),
  },
  {
    name: '/login sign-in form with its errors',
    who: 'visitor',
    open: async (p) => {
      await p.goto('/login');
      await p.getByRole('button', { name: 'Sign in' }).click();
    },
    ready: (p) => p.getByText('Enter your email address to continue'),
  },
  {
    name: '/login create-account form',
    who: 'visitor',
    open: async (p) => {
      await p.goto('/login');
      await p.getByRole('button', { name: 'Create an account' }).click();
    },
    ready: (p) => p.getByLabel('First & last name'),
  },
  {
    name: '/login password recovery form',
    who: 'visitor',
    open: async (p) => {
      await p.goto('/login');
      await p.getByRole('button', { name: 'Trouble signing in?' }).click();
    },
    ready: (p) => p.getByRole('button', { name: 'Send' }),
  },
  {
    name: 'visitor /ping',
    who: 'visitor',
    open: goto('/ping'),
    ready: (p) => p.getByText('Ping answers signed-in users only: log in first.'),
  },
  {
    name: 'user /ping',
    who: 'user',
    open: goto('/ping'),
    ready: (p) => p.getByRole('button', { name: /^pong, / }),
  },
  {
    name: '/connect/spotify initial',
    who: 'user',
    open: goto('/connect/spotify'),
    ready: (p) => p.getByRole('button', { name: 'Connect to Spotify' }),
  },
  {
    name: '/connect/spotify error',
    who: 'user',
    open: goto('/connect/spotify?error=access_denied'),
    ready: (p) => p.getByText('There was an error connecting to Spotify.', { exact: false }),
  },
  {
    name: '/connect/spotify unknown state',
    who: 'user',
    open: goto('/connect/spotify?code=abc&state=not-ours'),
    ready: (p) => p.getByText('Internal error: unknown state for this page.'),
  },
  {
    name: '/connect/spotify success',
    who: 'user',
    open: (p) => connectThroughConsent(p),
    ready: (p) => p.getByText('Spotify connected successfully.'),
  },
  {
    name: 'signed-in / (status page)',
    who: 'connected',
    open: goto('/'),
    ready: (p) => p.getByRole('heading', { name: 'Target playlists' }),
  },
  {
    name: '/targets/:id (a target’s tracks, issue 15)',
    who: 'connected',
    open: async (p) => {
      await p.goto('/');
      await p
        .getByRole('link', { name: /tracks added to/ })
        .first()
        .click();
    },
    ready: (p) => p.getByRole('tab', { name: 'Placed' }),
  },
  {
    name: '/targets/:id skipped tab',
    who: 'connected',
    open: async (p) => {
      await p.goto('/');
      await p
        .getByRole('link', { name: /tracks added to/ })
        .first()
        .click();
      await p.getByRole('tab', { name: 'Skipped' }).click();
    },
    ready: (p) => p.getByText('Tracks Pacebeat leaves out of this playlist', { exact: false }),
  },
  {
    name: '/excluded (issue 15)',
    who: 'connected',
    open: goto('/excluded'),
    ready: (p) => p.getByRole('heading', { name: 'Excluded tracks and artists' }),
  },
  {
    name: '/disconnect/spotify initial',
    who: 'connected',
    open: goto('/disconnect/spotify'),
    ready: (p) => p.getByRole('button', { name: 'Cancel disconnect' }),
  },
  {
    name: '/disconnect/spotify done',
    who: 'connected',
    open: async (p) => {
      await p.goto('/disconnect/spotify');
      await p.getByRole('button', { name: 'Disconnect from Spotify' }).click();
    },
    ready: (p) => p.getByText('You disconnected our service from Spotify.', { exact: false }),
  },
  {
    name: '/paces (targets, tempo chart, refresh now)',
    who: 'connected',
    open: goto('/paces'),
    ready: (p) => p.getByRole('button', { name: 'Refresh now' }),
  },
  {
    name: '/paces add-a-pace dialog',
    who: 'connected',
    open: async (p) => {
      await p.goto('/paces');
      await p.getByRole('button', { name: 'Add a pace' }).click();
    },
    ready: (p) => p.getByRole('dialog', { name: 'Add a pace' }),
  },
  {
    name: '/runs (saved runs, a new one from a preset; issue 37)',
    who: 'connected',
    open: goto('/runs'),
    ready: (p) => p.getByRole('button', { name: 'Make this run' }),
  },
  {
    name: '/api/docs (API documentation)',
    who: 'visitor',
    open: goto('/api/docs/'),
    ready: (p) => p.locator('.opblock').first(),
  },
  {
    name: '/api/docs with a call opened',
    who: 'visitor',
    open: async (p) => {
      await p.goto('/api/docs/');
      await p
        .getByRole('button', { name: /POST \/api\/login\b/ })
        .first()
        .click();
    },
    ready: (p) => p.getByText('Request body').first(),
  },
  {
    name: '/admin (who may sign up, invitations; issue 33)',
    who: 'admin',
    open: goto('/admin'),
    ready: (p) => p.getByRole('radiogroup', { name: 'Sign-up' }),
  },
  {
    name: '/admin with a new invitation link',
    who: 'admin',
    open: async (p) => {
      await p.goto('/admin');
      await p.getByRole('button', { name: 'Make an invitation link' }).click();
    },
    ready: (p) => p.getByText('The invitation link (shown once):'),
  },
];

/** A new signed-in account in this page's browser context. */
async function signUp(page: Page) {
  const res = await page.request.post('/api/signup', {
    data: { email: `a11y-${randomUUID()}@example.org`, name: 'A11y Runner', password: PASSWORD },
  });
  expect(res.ok()).toBe(true);
}

/** Connects a fresh simulated Spotify user through the consent page; ends on the connect page's success. */
async function connectThroughConsent(page: Page) {
  const admin = await sandboxAdmin(page);
  const created = await page.request.post(`${admin}/users`, {
    headers: sandboxAdminHeaders,
    data: { username: `a11y${randomUUID().slice(0, 8)}` },
  });
  const spotifyUser = ((await created.json()) as { id: string }).id;
  await page.goto('/connect/spotify');
  await page.getByRole('button', { name: 'Connect to Spotify' }).click();
  await page.locator('#user').selectOption(spotifyUser);
  await page.locator('#accept').click();
  await expect(page.getByText('Spotify connected successfully.')).toBeVisible({ timeout: 40_000 });
}

async function become(page: Page, who: Who) {
  if (who === 'visitor') return;
  if (who === 'admin') return signInAsAdmin(page);
  await signUp(page);
  if (who === 'connected') await connectThroughConsent(page);
}

for (const state of STATES) {
  test(`axe: ${state.name}`, async ({ page }, info) => {
    // On a machine busy with the other tests' demo users (their scans and audio checks share this server,
    // Vitest runs beside) a page's load and axe's own pass take many times their quiet figures: axe alone
    // took 2.9 s on /api/docs (1,100 elements) on a quiet machine, the whole state 13-15 s under the suite,
    // and past 30 s on a slower CI machine. A connected state signs up and connects first, too.
    test.setTimeout(90_000);
    await become(page, state.who);
    await state.open(page);
    await expect(state.ready(page).first()).toBeVisible({ timeout: 40_000 });
    await page.waitForLoadState('networkidle');
    // Let finite animations end first (a tab's ripple and colour change, a dialog's fade): axe's contrast
    // check reads the colours of the moment, and a half-faded text is not what a reader sees.
    await page.waitForFunction(
      () => {
        type Anim = { playState: string; effect: { getTiming(): { iterations?: number } } | null };
        const doc = (globalThis as unknown as { document: { getAnimations(): Anim[] } }).document;
        return doc
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity);
      },
      undefined,
      { timeout: 5_000 },
    );
    const results = await new AxeBuilder({ page }).analyze();
    const found = results.violations.map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
    const line = { page: state.name, title: await page.title(), violations: found };
    await info.attach('axe', { body: JSON.stringify(line, null, 2), contentType: 'application/json' });
    if (process.env.A11Y_REPORT) fs.appendFileSync(process.env.A11Y_REPORT, `${JSON.stringify(line)}\n`);
    const severe = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(severe, `serious or critical axe violations on ${state.name}`).toEqual([]);
  });
}

/** Presses Tab until `target` has the focus (at most `max` times), checking each stop is keyboard-focused. */
async function tabTo(page: Page, target: ReturnType<Page['getByLabel']>, max = 25) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement)) {
      expect(await target.evaluate((el) => el.matches(':focus-visible'))).toBe(true);
      return;
    }
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

test('the sign-in form works with the keyboard alone: create an account, then sign in', async ({ page }) => {
  const email = `a11y-keys-${randomUUID()}@example.org`;
  await page.goto('/login');
  await tabTo(page, page.getByRole('button', { name: 'Create an account' }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('First & last name')).toBeFocused();
  await page.keyboard.type('Keyboard Runner');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Choose password')).toBeFocused();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/(connect\/spotify)?$/);
  await page.context().clearCookies();
  expect((await page.request.get('/api/ping')).status()).toBe(401);

  await page.goto('/login');
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type('wrong-password1');
  await page.keyboard.press('Enter');
  await expect(page.getByText("The email and password you entered don't match")).toBeVisible();
  await tabTo(page, page.getByLabel('Password'));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/(connect\/spotify)?$/);
  expect((await page.request.get('/api/ping')).status()).toBe(200);
});

// Each page names itself in its title, so a screen reader user (and a tab list) can tell pages apart.
test('each page names itself in its <title>', async ({ page }) => {
  const titles = new Map<string, string>();
  for (const path of ['/', '/about', '/login', '/ping']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    titles.set(path, await page.title());
  }
  for (const [path, title] of titles) expect(title, path).toMatch(/Pacebeat/);
  expect(new Set(titles.values()).size, JSON.stringify(Object.fromEntries(titles))).toBe(titles.size);
});
