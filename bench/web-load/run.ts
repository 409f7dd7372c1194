// bench/web-load: the first load of the built web app in Chromium, served by the real server.
// Prints, for a visitor's `/`, the JavaScript transferred (compressed, as sent) and decoded, and, for a
// visitor and for a signed-in user with Spotify connected (demo world), the time until `/` is usable on
// a fresh load (empty cache): on this machine (localhost) and on a simulated slow 4G link.
// Run: npm run bench:web-load [-- --runs 5] [--no-build] [--dist DIR] [--port N]
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import {
  sandboxAdminHeaders,
  sandboxAdminUrl,
  startServer as startSharedServer,
} from '../shared/start-server.ts';
import { findChromium } from '../../scripts/find-chromium.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const RUNS = Number(arg('--runs') ?? 5);
const PORT = Number(arg('--port') ?? 8298);
const DIST = path.resolve(arg('--dist') ?? path.join(root, 'apps/web/dist'));
const BASE = `http://127.0.0.1:${PORT}`;

/** Lighthouse's mobile profile ("slow 4G"): 1.6 Mb/s down, 750 kb/s up, 150 ms round trips. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };

const startServer = () => startSharedServer({ port: PORT, webDist: DIST, tag: 'web' });

type Load = { ms: number; jsTransferred: number; jsDecoded: number; jsFiles: number; encodings: Set<string> };

/** Loads `/` in a fresh context (empty cache), until `ready` resolves; sums the JavaScript it fetched. */
async function load(
  browser: Browser,
  ready: (page: Page) => Promise<unknown>,
  opts: { storageState?: Awaited<ReturnType<BrowserContext['storageState']>>; slow: boolean },
): Promise<Load> {
  const context = await browser.newContext({ storageState: opts.storageState });
  const page = await context.newPage();
  if (opts.slow) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  }
  const scripts: Promise<{ transferred: number; decoded: number; encoding: string }>[] = [];
  page.on('response', (res) => {
    if (!new URL(res.url()).pathname.endsWith('.js')) return;
    scripts.push(
      (async () => ({
        transferred: (await res.request().sizes()).responseBodySize,
        decoded: (await res.body()).length,
        encoding: (await res.allHeaders())['content-encoding'] ?? 'none',
      }))(),
    );
  });
  const started = performance.now();
  await page.goto(`${BASE}/`);
  await ready(page);
  const ms = performance.now() - started;
  await page.waitForLoadState('networkidle');
  const js = await Promise.all(scripts);
  await context.close();
  return {
    ms,
    jsTransferred: js.reduce((n, s) => n + s.transferred, 0),
    jsDecoded: js.reduce((n, s) => n + s.decoded, 0),
    jsFiles: js.length,
    encodings: new Set(js.map((s) => s.encoding)),
  };
}

const visitorReady = (page: Page) =>
  page.getByRole('link', { name: 'Log in or register' }).waitFor({ timeout: 60_000 });

/** The status page is usable once both its tables (or their phone cards) show. */
const statusReady = async (page: Page) => {
  await page.getByRole('heading', { name: 'Target playlists' }).waitFor({ timeout: 60_000 });
  await page.getByRole('heading', { name: 'Sources' }).waitFor({ timeout: 60_000 });
};

/** A new local account with a simulated Spotify user connected through the consent page. */
async function signedInState(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const signup = await page.request.post(`${BASE}/api/signup`, {
    data: { email: `bench-${randomUUID()}@example.org`, name: 'Bench Runner', password: 'stride170' },
  });
  if (!signup.ok()) throw new Error(`signup answered ${signup.status()}`);
  const admin = sandboxAdminUrl(PORT);
  const user = (await (
    await page.request.post(`${admin}/users`, {
      headers: sandboxAdminHeaders,
      data: { username: `bench${randomUUID().slice(0, 8)}` },
    })
  ).json()) as { id: string };
  await page.goto(`${BASE}/connect/spotify`);
  await page.getByRole('button', { name: 'Connect to Spotify' }).click();
  await page.locator('#user').selectOption(user.id);
  await page.locator('#accept').click();
  await page.getByText('Spotify connected successfully.').waitFor({ timeout: 30_000 });
  const state = await context.storageState();
  await context.close();
  return state;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

if (!process.argv.includes('--no-build') && !arg('--dist')) {
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
const executablePath = await findChromium();
if (!executablePath) throw new Error('No Chromium found: see scripts/find-chromium.ts');
const server = await startServer();
const browser = await chromium.launch({
  executablePath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
  ],
});
try {
  const state = await signedInState(browser);
  // The status page reads GET targets and GET sources; without them it cannot become usable.
  const probe = await browser.newContext({ storageState: state });
  const missing: string[] = [];
  for (const route of ['targets', 'sources']) {
    const res = await probe.request.get(`${BASE}/api/spotify/${route}`);
    if (!res.ok()) missing.push(`GET /api/spotify/${route} answered ${res.status()}`);
  }
  await probe.close();
  const rows: string[] = [];
  let visitorJs: Load | undefined;
  for (const slow of [false, true]) {
    const visitor: Load[] = [];
    const signedIn: (Load | null)[] = [];
    for (let i = 0; i < RUNS; i++) {
      visitor.push(await load(browser, visitorReady, { slow }));
      if (missing.length === 0) {
        signedIn.push(await load(browser, statusReady, { slow, storageState: state }).catch(() => null));
      }
    }
    visitorJs ??= visitor[0];
    const done = signedIn.filter((l): l is Load => l !== null);
    const net = slow ? 'slow 4G (1.6 Mb/s, 150 ms RTT)' : 'localhost';
    rows.push(`| visitor, ${net} | ${median(visitor.map((l) => l.ms)).toFixed(0)} ms |`);
    rows.push(
      `| signed in, tables shown, ${net} | ${
        missing.length > 0
          ? `not measured: ${missing.join(', ')}`
          : done.length === RUNS
            ? `${median(done.map((l) => l.ms)).toFixed(0)} ms`
            : `not usable within 60 s in ${RUNS - done.length} of ${RUNS} loads`
      } |`,
    );
  }
  const v = visitorJs!;
  console.log(`Web app first load, ${DIST}, Chromium ${browser.version()}, median of ${RUNS} fresh loads`);
  console.log(
    `Visitor's /: ${v.jsFiles} JavaScript files, ${kb(v.jsTransferred)} transferred (content-encoding: ${[...v.encodings].join(', ')}), ${kb(v.jsDecoded)} decoded`,
  );
  console.log('| load of / (empty cache) | until usable |');
  console.log('|---|---|');
  for (const row of rows) console.log(row);
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
}
