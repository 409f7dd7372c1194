// bench/first-link: a new runner's wait for their first playlist. The built web app served by
// the real server (demo mode: the simulated Spotify and tempo sources), a fresh account in Chromium,
// Spotify connected through the consent page, then Proceed: the time from Proceed until the status page
// shows the first-fill line ("Finding songs at your paces: …") and until it shows the first playlist link.
// Prints the machine's load average with each run, since the two cores are often shared.
// Run: npm run bench:first-link [-- --runs 3] [--liked 300] [--no-build] [--port N]
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
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
const RUNS = Number(arg('--runs') ?? 3);
/** Liked songs of the new simulated Spotify user: 300, as the status page's browser test. */
const LIKED = arg('--liked') ?? '300';
const PORT = Number(arg('--port') ?? 8299);
const DIST = path.join(root, 'apps/web/dist');
const BASE = `http://127.0.0.1:${PORT}`;
/** Give up on a run after this long (the first fill's longest wait is 2 minutes). */
const LIMIT_MS = 240_000;

const startServer = () => startSharedServer({ port: PORT, webDist: DIST, tag: 'first-link' });

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');

interface Run {
  consentToProceedMs: number;
  noticeMs: number | null;
  firstLinkMs: number | null;
  noticeText: string | null;
  loadBefore: string;
  loadAfter: string;
}

/** One runner: sign-up, a new simulated Spotify user, the consent page, Proceed, the first link. */
async function oneRun(browser: Browser): Promise<Run> {
  const loadBefore = load();
  const context = await browser.newContext({ baseURL: BASE, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const signup = await page.request.post('/api/signup', {
    data: { email: `first-${randomUUID()}@example.org`, name: 'Bench Runner', password: 'stride170' },
  });
  if (!signup.ok()) throw new Error(`signup answered ${signup.status()}`);
  const admin = sandboxAdminUrl(PORT);
  const user = (await (
    await page.request.post(`${admin}/users`, {
      headers: sandboxAdminHeaders,
      data: { username: `first${randomUUID().slice(0, 8)}`, liked: Number(LIKED) },
    })
  ).json()) as { id: string };
  await page.goto('/connect/spotify');
  await page.getByRole('button', { name: 'Connect to Spotify' }).click({ timeout: 60_000 });
  await page.locator('#user').selectOption(user.id, { timeout: 30_000 });
  const accepted = performance.now();
  await page.locator('#accept').click();
  const proceed = page.getByRole('button', { name: 'Proceed' });
  await proceed.waitFor({ timeout: 60_000 });
  const started = performance.now();
  await proceed.click();
  const notice = page.getByRole('status', { name: 'First playlists' });
  const link = page
    .locator('section[aria-labelledby="section-target-playlists"] a[href*="playlist"]')
    .first();
  let noticeMs: number | null = null;
  let noticeText: string | null = null;
  void notice
    .filter({ hasText: 'so far' })
    .waitFor({ timeout: LIMIT_MS })
    .then(async () => {
      noticeMs = performance.now() - started;
      noticeText = await notice.textContent().catch(() => null);
    })
    .catch(() => undefined);
  const firstLinkMs = await link
    .waitFor({ timeout: LIMIT_MS })
    .then(() => performance.now() - started)
    .catch(() => null);
  await context.close();
  return {
    consentToProceedMs: started - accepted,
    noticeMs,
    firstLinkMs,
    noticeText,
    loadBefore,
    loadAfter: load(),
  };
}

if (!process.argv.includes('--no-build')) {
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
const executablePath = await findChromium();
if (!executablePath) throw new Error('No Chromium found: see scripts/find-chromium.ts');
const server = await startServer();
const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const s = (ms: number | null) =>
  ms === null ? `not within ${LIMIT_MS / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
try {
  console.log(
    `First playlist link after Proceed, demo mode, ${LIKED} liked songs, ${os.cpus().length} cores, Chromium ${browser.version()}`,
  );
  console.log(
    '| run | consent → Proceed shown | Proceed → first-fill line | Proceed → first link | load avg 1/5/15 min before → after |',
  );
  console.log('|---|---:|---:|---:|---|');
  const links: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await oneRun(browser);
    if (r.firstLinkMs !== null) links.push(r.firstLinkMs);
    console.log(
      `| ${i + 1} | ${s(r.consentToProceedMs)} | ${s(r.noticeMs)} | ${s(r.firstLinkMs)} | ${r.loadBefore} → ${r.loadAfter} |`,
    );
    if (r.noticeText) console.log(`  first-fill line seen: "${r.noticeText}"`);
  }
  const sorted = links.toSorted((a, b) => a - b);
  if (sorted.length > 0)
    console.log(
      `median Proceed → first link: ${s(sorted[Math.floor(sorted.length / 2)]!)} (${sorted.length} of ${RUNS} runs)`,
    );
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
}
