// Playlist truth: from connect until the work is done (or the daily budget allows no more), on the
// simulated world in development-mode semantics with a 1,000-call daily quota, the product's pipeline
// composed as main.ts composes it (compose.ts): connect → the library scan (`library-scan` jobs: Liked Songs, playlists,
// followed artists, artist catalogs) and the default targets → tempo-lookup jobs (the real resolver and
// estimator) → playlist-sync jobs (the real writer, matching the library's real `listMatchCandidates`),
// on real pg-boss and PostgreSQL. Scored by the sandbox's scoring, which knows every recording's true
// tempo. Not a test. See README.md beside this file.
//
//   node bench/playlist-truth/run.ts [--user ana.runs|max.miles|both] [--max-minutes 60] [--remove 5]
//                                     [--faults] [--samples 4]
import { type FaultRule, type startSandbox } from '@pacebeat/sandbox';
import type { Pacebeat } from '@pacebeat/server/src/app/compose.ts';
import type { MatchCandidate } from '@pacebeat/server/src/library/library.repository.ts';
import { MIN_CONFIDENCE } from '@pacebeat/server/src/playlists/matching.ts';
import type { LookupTimings } from '@pacebeat/server/src/tempo/lookup-timings.ts';
import type { LookupFacts, LookupJob } from './lookups.ts';
import { report } from './report.ts';
import { startComposedApp } from '../shared/composed-app.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
};
const USERS = option('--user', 'both') === 'both' ? ['ana.runs', 'max.miles'] : [option('--user', '')];
const MAX_MS = Number(option('--max-minutes', '60')) * 60_000;
const REMOVE = Number(option('--remove', '5'));
const SAMPLES = Number(option('--samples', '4'));
/** A low background of transient faults, including writes applied and then failed (on our side of the network). */
const FAULTS: FaultRule[] = args.includes('--faults')
  ? [
      { kind: 'status', status: 503, service: 'spotify-api', fraction: 0.02 },
      { kind: 'reset', service: 'spotify-api', method: 'GET', fraction: 0.01 },
    ]
  : [];
const log = (s: string) => process.stderr.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function runFor(user: string): Promise<string> {
  const bench = await startComposedApp({
    tag: 'playlists',
    size: user === 'max.miles' ? 'large' : 'default',
    env: { SPOTIFY_RATE_PER_30S: '100', SPOTIFY_DAILY_QUOTA: '1000' },
    faults: FAULTS,
  });
  const { app, sandbox, boss, stopping } = bench;
  try {
    const { spotify, tempo, playlists, library } = app;
    const t0 = performance.now();
    const connectedAt = Date.now();
    const cpu0 = { all: process.cpuUsage(), main: process.threadCpuUsage() };
    const userId = await bench.connect(user, `${user}@bench.example`);

    // Watch: the first 50 placed, the user removing a few placed tracks, and the end.
    const placed = async () => {
      const targets = await playlists.repo.listTargets(userId);
      const stats = await playlists.repo.statsOf(
        targets.map((t) => t.id),
        new Date(0),
      );
      return [...stats.values()].reduce((n, s) => n + s.tracksAdded, 0);
    };
    const webApiCalls = async (purpose = '') =>
      (await spotify.budget.ledger({ userKey: userId }))
        .filter((e) => e.endpoint !== 'POST /api/token' && e.purpose.startsWith(purpose))
        .reduce((n, e) => n + e.calls, 0);
    let first50: { seconds: number; calls: number; writerCalls: number } | null = null;
    let removed: string[] = [];
    let lastLog = 0;
    // Work due within the hour; a job put off to tomorrow (the daily quota) is left for tomorrow.
    // A job name the product does not have (tempo-audio, before it had one) has no jobs.
    const findJobs = (name: string) => boss.findJobs(name).catch(() => []);
    const live = async (name: 'library-scan' | 'tempo-lookup' | 'tempo-audio' | 'playlist-sync') =>
      (await findJobs(name)).filter((j) => ['created', 'retry', 'active'].includes(j.state));
    const busy = async () => {
      for (const name of ['library-scan', 'tempo-lookup', 'tempo-audio', 'playlist-sync'] as const)
        if ((await live(name)).some((j) => j.startAfter.getTime() < Date.now() + 3_600_000)) return true;
      return false;
    };
    const scanState = async (): Promise<'reading' | 'done' | 'quota'> => {
      const jobs = await live('library-scan');
      if (jobs.length === 0) return 'done';
      return jobs.every((j) => j.startAfter.getTime() >= Date.now() + 3_600_000) ? 'quota' : 'reading';
    };
    let candidates: MatchCandidate[] = [];
    let at2min: LookupFacts['at2min'] = null;
    for (;;) {
      await sleep(250);
      const n = await placed();
      if (!first50 && n >= 50)
        first50 = {
          seconds: (performance.now() - t0) / 1000,
          calls: await webApiCalls(),
          writerCalls: await webApiCalls('sync:'),
        };
      if (first50 && removed.length === 0 && REMOVE > 0)
        removed = await removeAsUser(sandbox, user, playlists, userId);
      // Every 3 s in the first two minutes (how the first 50 come), then every 15 s.
      if (performance.now() - lastLog > (performance.now() - t0 < 120_000 ? 3_000 : 15_000)) {
        lastLog = performance.now();
        candidates = await library.listMatchCandidates(userId);
        const known = [...(await tempo.repo.getByKeys(candidates.map((c) => c.recordingKey))).values()];
        const trusted = known.filter((k) => k.bpm !== null && k.confidence >= MIN_CONFIDENCE).length;
        if (!at2min && performance.now() - t0 >= 120_000) {
          const scanned = new Set(candidates.map((c) => c.recordingKey)).size;
          at2min = { scanned, resolved: known.length };
        }
        const lookups = [...(await live('tempo-lookup')), ...(await live('tempo-audio'))];
        log(
          `  ${user}: ${candidates.length} library tracks (scan ${await scanState()}), ${known.filter((k) => k.bpm !== null).length} tempos (${trusted} trusted), ${lookups.length} lookup jobs, ${n} placed, ${await webApiCalls()} Spotify calls, ${((performance.now() - t0) / 1000).toFixed(0)} s`,
        );
      }
      if (!(await busy())) break;
      if (performance.now() - t0 > MAX_MS) {
        log(`  ${user}: stopped after ${MAX_MS / 60_000} minutes`);
        break;
      }
    }
    const endedAt = Date.now();
    candidates = await library.listMatchCandidates(userId);
    const tempos = await tempo.repo.getByKeys([...new Set(candidates.map((c) => c.recordingKey))]);
    const seconds = (performance.now() - t0) / 1000;
    const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;
    const cpu = {
      all: cpuSeconds(process.cpuUsage(cpu0.all)),
      main: cpuSeconds(process.threadCpuUsage(cpu0.main)),
    };
    stopping.abort();
    const active = async () =>
      [...(await findJobs('tempo-lookup')), ...(await findJobs('tempo-audio'))].some(
        (j) => j.state === 'active',
      );
    for (let i = 0; i < 240 && (await active()); i++) await sleep(250);
    // The finished tempo-lookup and tempo-audio jobs: pg-boss's times and the timings the job wrote in its output.
    const jobs: LookupJob[] = [];
    let secondLooks = 0;
    for (const kind of ['tempo-lookup', 'tempo-audio'] as const)
      for (const j of await findJobs(kind))
        if (j.state === 'completed' && j.startedOn) {
          const detail = (j.output as { detail?: { timings?: LookupTimings; secondLook?: number } } | null)
            ?.detail;
          secondLooks += detail?.secondLook ?? 0;
          const timings = detail?.timings;
          if (timings)
            jobs.push({
              kind,
              createdOn: j.createdOn,
              startAfter: j.startAfter,
              startedOn: j.startedOn,
              timings,
            });
        }
    return report({
      user,
      sandbox,
      userId,
      seconds,
      scan: await scanState(),
      candidates,
      first50,
      removed,
      endedAt,
      addWaitMs: bench.config.PLAYLIST_ADD_WAIT_SECONDS * 1000,
      samples: SAMPLES,
      ledger: await spotify.budget.ledger({ userKey: userId }),
      targets: await playlists.repo.listTargets(userId),
      rows: await Promise.all(
        (await playlists.repo.listTargets(userId)).map((t) => playlists.repo.tracksOf(t.id)),
      ),
      tempos,
      writer: await (async () => {
        const ids = (await playlists.repo.listTargets(userId)).map((t) => t.id);
        return {
          placed: await playlists.repo.placedSongs(ids),
          inOrder: await playlists.repo.placedInOrder(ids),
        };
      })(),
      lookups: {
        connectedAt,
        seconds,
        tempos,
        at2min,
        cpu,
        previews: { ...sandbox.previewStats },
        scanned: new Set(candidates.map((c) => c.recordingKey)).size,
        jobs,
        secondLooks,
      },
    });
  } finally {
    await bench.close();
  }
}

/** The runner removes a few placed tracks in their Spotify app (the Web API with their own token). */
async function removeAsUser(
  sandbox: Awaited<ReturnType<typeof startSandbox>>,
  user: string,
  playlists: Pacebeat['playlists'],
  userId: string,
): Promise<string[]> {
  const { access_token } = sandbox.admin.connect({ userId: user });
  const out: string[] = [];
  for (const t of await playlists.repo.listTargets(userId)) {
    if (!t.playlistId || out.length >= REMOVE) continue;
    const ids = sandbox.admin
      .playlistItems(t.playlistId)
      .filter((x): x is string => x !== null)
      .slice(0, Math.min(2, REMOVE - out.length));
    if (ids.length === 0) continue;
    const res = await fetch(`${sandbox.baseUrls.spotifyApi}/playlists/${t.playlistId}/items`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ items: ids.map((id) => ({ uri: `spotify:track:${id}` })) }),
    });
    if (res.ok) out.push(...ids);
    await res.text();
  }
  return out;
}

for (const user of USERS) {
  log(`${user}: connecting…`);
  console.log(await runFor(user));
  console.log('');
}
