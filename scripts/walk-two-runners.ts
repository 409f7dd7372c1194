// The two-runner walk (artists spread, a same-day reconnect, the first hour's rough edges): two runners
// in demo mode, one disconnecting and connecting again the same day, walked in Chromium at 1280 px and 360 px
// as new users would, with every Pacebeat playlist counted from outside (the simulated world's admin API:
// items in order, each track's artists, ISRC, song and true tempo)
// and compared with the status page's "tracks added". Also looks for the first hour's rough edges on the way
// (the odd requests with bodies and bad escapes are curl against the server, not here). Everything goes to OUT: the
// screenshots, walk.log (what was seen, with times) and outside-*.json (each count from outside).
//
// Start Pacebeat in demo mode first, with the in-process world's admin API on a known port and token:
//
//   PORT=8090 DATA_DIR=/tmp/walk2-data DEMO_SANDBOX_PORT=9190 DEMO_SANDBOX_ADMIN_TOKEN=<token> npm start
//
// then, on a fresh data folder (the first account becomes the admin):
//
//   BASE=http://127.0.0.1:8090 SANDBOX=http://127.0.0.1:9190 SANDBOX_TOKEN=<token> OUT=/tmp/walk2-shots \
//   CHROMIUM_PATH=/usr/bin/chromium WALK_MINUTES=13 npx tsx scripts/walk-two-runners.ts
//
// Runner 1 connects ana.runs, runner 2 dana; runner 2 disconnects about 6 minutes in and connects again at
// once; the walk goes on WALK_MINUTES after that, then revokes runner 1's grant in the world (item 7).
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';

const BASE = process.env.BASE ?? 'http://127.0.0.1:8090';
const SANDBOX = process.env.SANDBOX ?? 'http://127.0.0.1:9190';
const SANDBOX_TOKEN = process.env.SANDBOX_TOKEN ?? '';
const OUT = process.env.OUT ?? '/tmp/walk2-shots';
const WALK_MINUTES = Number(process.env.WALK_MINUTES ?? 13);
const BEFORE_DISCONNECT_MINUTES = Number(process.env.BEFORE_DISCONNECT_MINUTES ?? 6);
const PASSWORD = 'stride170-walk';
const W1280 = { width: 1280, height: 900 };
const W360 = { width: 360, height: 780 };

fs.mkdirSync(OUT, { recursive: true });
const logFile = path.join(OUT, 'walk.log');
fs.writeFileSync(logFile, '');
const started = Date.now();
const clock = () => new Date().toISOString().slice(11, 19);
function say(what: string) {
  const line = `${clock()} +${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s  ${what}`;
  console.log(line);
  fs.appendFileSync(logFile, line + '\n');
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A step that may fail without ending the walk: the failure is logged. */
async function step<T>(name: string, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    say(`STEP FAILED ${name}: ${(e as Error).message.split('\n').slice(0, 3).join(' | ')}`);
    return undefined;
  }
}

// ---------- the simulated world, from outside ----------

async function admin<T>(p: string): Promise<T> {
  const res = await fetch(`${SANDBOX}/admin${p}`, { headers: { authorization: `Bearer ${SANDBOX_TOKEN}` } });
  if (!res.ok) throw new Error(`sandbox ${p}: ${res.status}`);
  return (await res.json()) as T;
}
async function adminPost(p: string, body: unknown) {
  const res = await fetch(`${SANDBOX}/admin${p}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SANDBOX_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.text() };
}
type Truth = { id: string; artists: string[]; isrc: string; trueTempo: number; songId: string; name: string };
const truthCache = new Map<string, Truth>();
async function truth(id: string) {
  let t = truthCache.get(id);
  if (!t) {
    t = await admin<Truth>(`/tracks/${id}`);
    truthCache.set(id, t);
  }
  return t;
}

type PlaylistCount = {
  listener: string;
  id: string;
  name: string;
  items: number;
  nonTracks: number;
  dupTrackIds: number;
  dupIsrcs: number;
  dupSongs: number;
  longestArtistRun: number;
  longestRunArtist: string;
  distinctArtists: number;
  distinctFirstArtists: number;
  distinctArtistsFirst20: number;
  fitStrict: number;
  fitOctave: number;
  range: [number, number] | null;
};

async function countPlaylists(listener: string): Promise<PlaylistCount[]> {
  const user = await admin<{ playlists: { id: string; name: string; owner: string }[] }>(
    `/users/${listener}`,
  );
  const out: PlaylistCount[] = [];
  for (const pl of user.playlists.filter((p) => p.owner === listener && /pacebeat/i.test(p.name))) {
    const { trackIds } = await admin<{ trackIds: (string | null)[] }>(`/playlists/${pl.id}/items`);
    const ids = trackIds.filter((x): x is string => x !== null);
    const tracks: Truth[] = [];
    for (const id of ids) tracks.push(await truth(id));
    const dups = (keys: string[]) => keys.length - new Set(keys).size;
    // Longest run of consecutive songs that share one artist (any credited artist).
    let best = 0;
    let bestArtist = '';
    const runs = new Map<string, number>();
    for (const t of tracks) {
      for (const a of [...runs.keys()]) if (!t.artists.includes(a)) runs.delete(a);
      for (const a of t.artists) {
        const n = (runs.get(a) ?? 0) + 1;
        runs.set(a, n);
        if (n > best) [best, bestArtist] = [n, a];
      }
    }
    const m = /(\d+)\s*[–-]\s*(\d+)\s*BPM/i.exec(pl.name);
    const range: [number, number] | null = m ? [Number(m[1]), Number(m[2])] : null;
    const inRange = (bpm: number) => range !== null && bpm >= range[0] && bpm < range[1];
    out.push({
      listener,
      id: pl.id,
      name: pl.name,
      items: trackIds.length,
      nonTracks: trackIds.length - ids.length,
      dupTrackIds: dups(ids),
      dupIsrcs: dups(tracks.map((t) => t.isrc)),
      dupSongs: dups(tracks.map((t) => t.songId)),
      longestArtistRun: best,
      longestRunArtist: bestArtist,
      distinctArtists: new Set(tracks.flatMap((t) => t.artists)).size,
      distinctFirstArtists: new Set(tracks.map((t) => t.artists[0])).size,
      distinctArtistsFirst20: new Set(tracks.slice(0, 20).flatMap((t) => t.artists)).size,
      fitStrict: tracks.filter((t) => inRange(t.trueTempo)).length,
      fitOctave: tracks.filter((t) => [t.trueTempo, t.trueTempo * 2, t.trueTempo / 2].some(inRange)).length,
      range,
    });
  }
  return out;
}

let outsideRound = 0;
async function outside(label: string) {
  const all = [...(await countPlaylists('ana.runs')), ...(await countPlaylists('dana'))];
  fs.writeFileSync(
    path.join(OUT, `outside-${String(++outsideRound).padStart(2, '0')}-${label}.json`),
    JSON.stringify(all, null, 1),
  );
  for (const p of all)
    say(
      `OUTSIDE ${label} ${p.listener} "${p.name}": items ${p.items} (non-tracks ${p.nonTracks}), dup ids ${p.dupTrackIds} isrc ${p.dupIsrcs} song ${p.dupSongs}, ` +
        `longest artist run ${p.longestArtistRun} (${p.longestRunArtist}), distinct artists ${p.distinctArtists} (first-credited ${p.distinctFirstArtists}, in first 20: ${p.distinctArtistsFirst20}), ` +
        `fit ${p.fitStrict}/${p.items - p.nonTracks} strict, ${p.fitOctave} with ×2/½`,
    );
  return all;
}

// ---------- the app, in Chromium ----------

async function shot(page: Page, name: string, fullPage = true) {
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file, fullPage, animations: 'disabled' });
  say(`screenshot ${file}`);
}
/** The same page at 1280 and at 360 (reloaded at each), then back to `back`. */
async function shotBoth(page: Page, name: string, back = W1280) {
  for (const [w, vp] of [
    ['1280', W1280],
    ['360', W360],
  ] as const) {
    await page.setViewportSize(vp);
    await page.reload();
    await page.waitForLoadState('networkidle').catch(() => undefined);
    await sleep(1500);
    await shot(page, `${name}-${w}`);
  }
  await page.setViewportSize(back);
}

async function newRunner(browser: Browser, label: string) {
  const context: BrowserContext = await browser.newContext({ viewport: W1280 });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') say(`${label} console error: ${m.text().slice(0, 300)}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 500) say(`${label} HTTP ${r.status()} ${r.url()}`);
  });
  return { context, page };
}

async function api(page: Page, p: string) {
  return page.evaluate(async (url) => {
    const res = await fetch(url);
    return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
  }, `${BASE}${p}`);
}

/** Item 9: what the sign-up form does with a long name and a long email (nothing cut without a word). */
async function signUpFieldLimits(page: Page) {
  await page.setViewportSize(W360);
  await page.goto(`${BASE}/login`);
  await page.getByRole('button', { name: 'Create an account' }).click();
  const name = page.getByLabel('First & last name');
  await name.fill('n'.repeat(300));
  const email = page.getByLabel('Email');
  await email.fill(`${'a'.repeat(300)}@example.org`);
  const pw = page.getByLabel('Choose password');
  await pw.fill('p'.repeat(300));
  await sleep(500);
  say(
    `item 9 sign-up fields: name kept ${(await name.inputValue()).length}/300, email kept ${(await email.inputValue()).length}/312, password kept ${(await pw.inputValue()).length}/300`,
  );
  const form = await page.locator('main').innerText();
  say(`item 9 sign-up form says: ${form.replace(/\s+/g, ' ').slice(0, 800)}`);
  await shot(page, '01-signup-long-input-360');
  await page.setViewportSize(W1280);
}

async function signUp(page: Page, email: string, name: string) {
  await page.goto(`${BASE}/login`);
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('First & last name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Choose password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 30_000 });
  await page.waitForURL(/\/connect\/spotify/, { timeout: 15_000 }).catch(() => undefined);
  const who = await api(page, '/api/whoami');
  say(`signed up ${email}: ${JSON.stringify((who.body as { data: unknown }).data).slice(0, 200)}`);
}

/** Connect page → the simulated consent page (listener picked) → connected → Proceed. Returns when connected. */
async function connect(page: Page, listener: string, name: string) {
  await page.goto(`${BASE}/connect/spotify`);
  const button = page.getByRole('button', { name: 'Connect to Spotify' });
  await button.and(page.locator(':enabled')).waitFor({ timeout: 30_000 });
  await shot(page, `${name}-connect`);
  await button.click();
  await page.waitForURL(/\/authorize\?/, { timeout: 30_000 });
  await page.locator('#user').selectOption(listener);
  await shot(page, `${name}-consent`);
  await page.locator('#accept').click();
  await page.getByText('Spotify connected successfully.').waitFor({ timeout: 30_000 });
  const at = Date.now();
  say(`${name}: connected as ${listener}`);
  await shot(page, `${name}-connected`);
  await page.getByRole('button', { name: 'Proceed' }).click();
  await page.waitForURL(`${BASE}/`, { timeout: 30_000 });
  return at;
}

type Src = {
  kind: string;
  name?: string;
  enabled: boolean;
  timestamp_last_job_finished: number | null;
  progress?: { state: string; items_read: number; items_total: number | null };
};
type StatusRead = { text: string; counts: Record<string, number | null>; sources: string; raw: Src[] };
/** The status page as the runner sees it: its text, and each playlist's "tracks added" from the page. */
async function readStatus(page: Page): Promise<StatusRead> {
  if (new URL(page.url()).pathname !== '/') await page.goto(`${BASE}/`);
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 30_000 });
  await sleep(800);
  const text = (await page.locator('main').innerText()).replace(/[ \t]+/g, ' ');
  const counts: Record<string, number | null> = {};
  for (const label of await page
    .getByRole('link', { name: /tracks added to .*: see them$/ })
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))) {
    const m = /^(\S+) tracks added to (.*): see them$/.exec(label);
    if (m) counts[m[2]!] = m[1] === 'N/A' ? null : Number(m[1]!.replace(/,/g, ''));
  }
  // The sources' states, from the same API the page reads (to know when the library read ends).
  const src = await api(page, '/api/spotify/sources');
  const data = (src.body as { data?: { sources?: Src[]; summary?: unknown } })?.data;
  const states = (data?.sources ?? [])
    .map(
      (s) =>
        `${s.kind}${s.name ? `:${s.name}` : ''}${s.enabled ? '' : '(off)'}=${s.progress?.state ?? '?'}${s.progress ? `(${s.progress.items_read}/${s.progress.items_total ?? '?'})` : ''}@${s.timestamp_last_job_finished ?? '-'}`,
    )
    .join(' ');
  return {
    text,
    counts,
    sources: `${JSON.stringify(data?.summary ?? null)} ${states}`,
    raw: data?.sources ?? [],
  };
}

const lastText = new Map<string, string>();
async function logStatus(page: Page, who: string) {
  const s = await readStatus(page);
  say(`${who} status counts ${JSON.stringify(s.counts)}`);
  say(`${who} sources ${s.sources.slice(0, 1500)}`);
  if (lastText.get(who) !== s.text) {
    lastText.set(who, s.text);
    say(`${who} status page text changed:\n    ${s.text.split('\n').filter(Boolean).join('\n    ')}`);
  }
  for (const bad of [
    /Spotify['’]s limit/i,
    /Nothing to do on your side/i,
    /connect again/i,
    /Internal error/i,
  ])
    if (bad.test(s.text)) say(`${who} NOTE: the status page says ${bad}`);
  return s;
}

/** Item 5: the setup page must not list http://[::1]:PORT/ when the server listens on 127.0.0.1. */
async function setupPage(page: Page) {
  await page.goto(`${BASE}/setup/spotify`);
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 30_000 });
  await sleep(1500);
  const text = await page.locator('main').innerText();
  const uris = [...new Set(text.match(/https?:\/\/[^\s"'”)]+/g) ?? [])];
  say(`item 5 setup page URLs: ${uris.join(' ')}`);
  say(`item 5 setup page lists [::1]: ${text.includes('[::1]')}`);
  await shotBoth(page, '03-setup-spotify');
}

/** Item 8: at 360 px the add-a-pace dialog's labels must not be cut. */
async function addPaceDialog(page: Page) {
  await page.setViewportSize(W360);
  await page.goto(`${BASE}/paces`);
  await page.getByRole('button', { name: 'Add a pace' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await sleep(800);
  const cut = await dialog.locator('label').evaluateAll((els) =>
    els
      .map((e) => ({
        text: e.textContent ?? '',
        cut: e.scrollWidth > e.clientWidth + 1,
        w: e.clientWidth,
        sw: e.scrollWidth,
      }))
      .filter((x) => x.text.trim()),
  );
  say(`item 8 add-a-pace labels at 360: ${JSON.stringify(cut)}`);
  await shot(page, '06-add-a-pace-dialog-360', false);
  await dialog.evaluate((d) => d.querySelector('[class*="DialogContent"]')?.scrollTo(0, 10_000));
  await shot(page, '06-add-a-pace-dialog-360-scrolled', false);
  await page.keyboard.press('Escape');
  await page.setViewportSize(W1280);
}

/** Item 6: correct a placed song's tempo to 120, open the dialog again, read what it says. */
async function fixTempo(page: Page) {
  await page.goto(`${BASE}/`);
  const link = page.getByRole('link', { name: /tracks added to .*: see them$/ }).first();
  await link.waitFor({ timeout: 30_000 });
  await link.click();
  await page.waitForURL(/\/targets\//);
  const fix = page.getByRole('button', { name: 'Fix tempo' }).first();
  await fix.waitFor({ timeout: 30_000 });
  await fix.click();
  let dialog = page.getByRole('dialog');
  await dialog.waitFor();
  const title = await dialog.getByRole('heading').first().innerText();
  say(
    `item 6 before: ${title}: ${(await dialog.innerText()).replace(/\s+/g, ' ').slice(0, 500)}; field ${await dialog.getByLabel('BPM').inputValue()}`,
  );
  await shot(page, '07-fix-tempo-before-1280', false);
  await dialog.getByLabel('BPM').fill('120');
  await dialog.getByRole('button', { name: 'Save tempo' }).click();
  await page.getByText(/saved: 120 BPM/).waitFor({ timeout: 30_000 });
  say('item 6: saved 120 BPM');
  await sleep(2500);
  // The same track again (it may have moved in the list: find it by its title).
  const name = title.replace(/^Fix the tempo of “|”$/g, '');
  const row = page.locator('li, tr').filter({ hasText: name }).first();
  const again =
    (await row.count()) > 0
      ? row.getByRole('button', { name: 'Fix tempo' })
      : page.getByRole('button', { name: 'Fix tempo' }).first();
  await again.click();
  dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await sleep(500);
  say(
    `item 6 after: ${(await dialog.innerText()).replace(/\s+/g, ' ').slice(0, 500)}; field ${await dialog.getByLabel('BPM').inputValue()}`,
  );
  await shot(page, '07-fix-tempo-after-1280', false);
  await page.setViewportSize(W360);
  await sleep(500);
  await shot(page, '07-fix-tempo-after-360', false);
  await page.setViewportSize(W1280);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
}

/** Runner 2's disconnect page (what a reconnect costs), the disconnect, and connecting again. */
async function disconnectAndReconnect(page: Page) {
  await page.goto(`${BASE}/disconnect/spotify`);
  await page.getByRole('button', { name: 'Disconnect from Spotify' }).waitFor({ timeout: 30_000 });
  const text = await page.locator('main').innerText();
  say(`disconnect page says: ${text.replace(/\s+/g, ' ')}`);
  say(`disconnect page tells the cost of a reconnect: ${/connecting again/i.test(text)}`);
  await shot(page, '08-r2-disconnect-page-1280');
  await page.setViewportSize(W360);
  await shot(page, '08-r2-disconnect-page-360');
  await page.setViewportSize(W1280);
  await page.getByRole('button', { name: 'Disconnect from Spotify' }).click();
  await page.getByText(/You disconnected our service from Spotify/).waitFor({ timeout: 60_000 });
  say('runner 2 disconnected');
  await shot(page, '08-r2-disconnected-1280');
  return connect(page, 'dana', '09-r2-reconnect');
}

/** Item 7: runner 1's grant revoked in the world; what the status page then says. */
async function revoked(page: Page) {
  const r = await adminPost('/tokens/revoke', { userId: 'ana.runs' });
  say(`item 7: revoked ana.runs's grants in the world: ${r.status} ${r.body.slice(0, 200)}`);
  for (let i = 0; i < 12; i++) {
    await sleep(15_000);
    await page.reload();
    const s = await logStatus(page, 'r1-after-revoke');
    const alerts = await page.getByRole('alert').allInnerTexts();
    const statuses = await page.getByRole('status').allInnerTexts();
    say(
      `item 7 alerts: ${JSON.stringify(alerts).slice(0, 600)} statuses: ${JSON.stringify(statuses).slice(0, 600)}`,
    );
    if (alerts.length > 0 || /connect again|reconnect/i.test(s.text)) break;
  }
  await shotBoth(page, '12-r1-after-revoke');
}

// ---------- the walk ----------

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
});
try {
  const r1 = await newRunner(browser, 'r1');
  const r2 = await newRunner(browser, 'r2');
  await step('item 9 fields', () => signUpFieldLimits(r1.page));
  const tag = randomUUID().slice(0, 6);
  await signUp(r1.page, `rita-${tag}@example.org`, 'Rita One');
  await shot(r1.page, '02-r1-after-signup-1280');
  await signUp(r2.page, `sam-${tag}@example.org`, 'Sam Two');
  await shot(r2.page, '02-r2-after-signup-1280');
  await step('item 5 setup page', () => setupPage(r1.page));

  const c1 = await connect(r1.page, 'ana.runs', '04-r1');
  const c2 = await connect(r2.page, 'dana', '04-r2');
  say(`both connected (${((c2 - c1) / 1000).toFixed(0)} s apart)`);

  let r2Reconnect = 0;
  let r2ReadDoneAt = 0;
  let lastOutside = 0;
  let shotFirst = false;
  let didPaceDialog = false;
  const end = () => (r2Reconnect ? r2Reconnect + WALK_MINUTES * 60_000 : Infinity);
  while (Date.now() < end()) {
    const minutes = (Date.now() - c2) / 60_000;
    await step('r1 status', () => logStatus(r1.page, 'r1'));
    const s2 = await step('r2 status', () => logStatus(r2.page, 'r2'));
    const enabled = s2?.raw.filter((x) => x.enabled) ?? [];
    const readDone =
      enabled.length > 0 &&
      enabled.every(
        (x) =>
          !['scanning', 'waiting'].includes(x.progress?.state ?? '') &&
          (x.timestamp_last_job_finished ?? 0) * 1000 >= r2Reconnect - 1000,
      );
    if (r2Reconnect && !r2ReadDoneAt && readDone) {
      r2ReadDoneAt = Date.now();
      say(
        `R2 LIBRARY READ COMPLETE (no source scanning or waiting) ${((r2ReadDoneAt - r2Reconnect) / 1000).toFixed(0)} s after the reconnect`,
      );
      await step('r2 read-done shots', () => shotBoth(r2.page, '10-r2-library-read-after-reconnect'));
    }
    if (!shotFirst && minutes > 3) {
      shotFirst = true;
      await step('first status shots', async () => {
        await shotBoth(r1.page, '05-r1-status-3min');
        await shotBoth(r2.page, '05-r2-status-3min');
      });
    }
    if (!didPaceDialog && minutes > 4) {
      didPaceDialog = true;
      await step('item 8 add-a-pace', () => addPaceDialog(r1.page));
      await step('item 6 fix tempo', () => fixTempo(r1.page));
      await r1.page.goto(`${BASE}/`);
    }
    if (!r2Reconnect && minutes > BEFORE_DISCONNECT_MINUTES) {
      await step('outside before disconnect', () => outside('before-r2-disconnect'));
      lastOutside = Date.now();
      const at = await step('r2 disconnect and reconnect', () => disconnectAndReconnect(r2.page));
      r2Reconnect = at ?? Date.now();
      say(`R2 RECONNECTED at ${new Date(r2Reconnect).toISOString()}`);
      await step('r2 status right after reconnect', () => shotBoth(r2.page, '09-r2-status-just-reconnected'));
      continue;
    }
    if (Date.now() - lastOutside > 3 * 60_000) {
      lastOutside = Date.now();
      await step('outside', () => outside(`t${Math.round(minutes)}min`));
    }
    await sleep(30_000);
  }
  say(
    r2ReadDoneAt
      ? `r2's library read took ${((r2ReadDoneAt - r2Reconnect) / 1000).toFixed(0)} s after the reconnect`
      : 'R2 LIBRARY READ NOT COMPLETE by the end of the walk',
  );
  // The end: the status pages at both widths, and the playlists from outside at the same moment.
  await step('final shots', async () => {
    await shotBoth(r1.page, '11-r1-status-end');
    await shotBoth(r2.page, '11-r2-status-end');
  });
  const final1 = await step('final r1', () => logStatus(r1.page, 'r1-final'));
  const final2 = await step('final r2', () => logStatus(r2.page, 'r2-final'));
  const counted = (await step('outside final', () => outside('final'))) ?? [];
  for (const p of counted) {
    const page = p.listener === 'ana.runs' ? final1 : final2;
    const onPage = page?.counts[p.name];
    say(
      `COMPARE ${p.listener} "${p.name}": items ${p.items}, status page "tracks added" ${onPage ?? 'not found'}: ${onPage === p.items ? 'equal' : 'DIFFERENT'}`,
    );
  }
  await step('item 7 revoke', () => revoked(r1.page));
  await r1.context.close();
  await r2.context.close();
  say('walk done');
} finally {
  await browser.close();
}
