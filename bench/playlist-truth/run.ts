// Playlist truth: from connect until the work is done (or the daily budget allows no more), on the
// simulated world in development-mode semantics with a 1,000-call daily quota, the product's pipeline:
// connect → default targets → liked songs read page by page → tempo-lookup jobs (the real resolver and
// estimator) → playlist-sync jobs (the real writer), on real pg-boss and PostgreSQL. Scored by the
// sandbox's scoring, which knows every recording's true tempo. Not a test.
//
// Until the library scanner (issue 10) is merged, a stand-in reads only Liked Songs (GET /me/tracks, at
// the library-scan priority) and lists them as candidates; playlists, followed artists and catalogs are
// not scanned, so recall is over the liked songs, and the catalogs' cost is an estimate.
//
//   node bench/playlist-truth/run.ts [--user ana.runs|max.miles|both] [--max-liked N] [--max-minutes 60]
//                                     [--remove 5] [--faults]
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PgBoss } from 'pg-boss';
import pino from 'pino';
import { startSandbox, type FaultRule } from '@pacebeat/sandbox';
import { createDb } from '@pacebeat/server/src/db/client.ts';
import { startEmbeddedPostgres } from '@pacebeat/server/src/db/embedded.ts';
import { runMigrations } from '@pacebeat/server/src/db/migrate.ts';
import { createJobQueue, setupQueues, startWorkers } from '@pacebeat/server/src/jobs/registry.ts';
import type { HousekeepingService } from '@pacebeat/server/src/jobs/housekeeping.service.ts';
import type { MatchCandidate } from '@pacebeat/server/src/playlists/candidates.ts';
import { createPlaylistsModule } from '@pacebeat/server/src/playlists/playlists.module.ts';
import type { TrackObject } from '@pacebeat/server/src/spotify/api.ts';
import { sandboxSpotifyEndpoints } from '@pacebeat/server/src/spotify/demo.ts';
import { SpotifyDeferredError } from '@pacebeat/server/src/spotify/errors.ts';
import { createSpotifyModule } from '@pacebeat/server/src/spotify/spotify.module.ts';
import { createEstimatorPool } from '@pacebeat/server/src/tempo/estimator/index.ts';
import { spotifyAudioFeaturesFor } from '@pacebeat/server/src/tempo/spotify-audio-features.ts';
import { TempoConfigSchema } from '@pacebeat/server/src/tempo/tempo.config.ts';
import { createTempoLookups } from '@pacebeat/server/src/tempo/tempo.jobs.ts';
import { createTempoModule } from '@pacebeat/server/src/tempo/tempo.module.ts';
import { tempoKey, type TrackInput } from '@pacebeat/server/src/tempo/tempo.service.ts';
import { report } from './report.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
};
const USERS = option('--user', 'both') === 'both' ? ['ana.runs', 'max.miles'] : [option('--user', '')];
const MAX_LIKED = Number(option('--max-liked', 'Infinity'));
const MAX_MS = Number(option('--max-minutes', '60')) * 60_000;
const REMOVE = Number(option('--remove', '5'));
/** A low background of transient faults, including writes applied and then failed (on our side of the network). */
const FAULTS: FaultRule[] = args.includes('--faults')
  ? [
      { kind: 'status', status: 503, service: 'spotify-api', fraction: 0.02 },
      { kind: 'reset', service: 'spotify-api', method: 'GET', fraction: 0.01 },
    ]
  : [];
const log = (s: string) => process.stderr.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quiet = pino({ level: 'silent' });

async function runFor(user: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacebeat-bench-playlists-'));
  await fs.chmod(dir, 0o755);
  const pg = await startEmbeddedPostgres(path.join(dir, 'pg'), quiet);
  const handle = createDb(pg.url, { max: 8 });
  await runMigrations(handle);
  const sandbox = await startSandbox({ size: user === 'max.miles' ? 'large' : 'default', faults: FAULTS });
  const pool = createEstimatorPool();
  const boss = new PgBoss({ connectionString: pg.url, schema: 'pgboss' });
  boss.on('error', () => undefined);
  try {
    await boss.start();
    await setupQueues(boss);
    const queue = createJobQueue(boss);
    const candidates: MatchCandidate[] = [];
    const spotify = createSpotifyModule(
      handle.db,
      sandboxSpotifyEndpoints(sandbox),
      {
        SPOTIFY_RATE_PER_30S: 100,
        SPOTIFY_DAILY_QUOTA: 1000,
        SPOTIFY_TIMEOUT_SECONDS: 10,
        TOKEN_ENCRYPTION_KEY: 'cd'.repeat(32),
        dataDir: dir,
      },
      quiet,
      {
        onConnected: [
          async (userId) => {
            await playlists.service.createDefaultTargets(userId);
            await playlists.jobs.trigger(userId);
          },
        ],
      },
    );
    const tempo = createTempoModule(
      handle.db,
      TempoConfigSchema.parse({
        DEEZER_API_URL: sandbox.baseUrls.deezer,
        RECCOBEATS_API_URL: sandbox.baseUrls.reccobeats,
        GETSONGBPM_API_URL: sandbox.baseUrls.getsongbpm,
        GETSONGBPM_API_KEY: sandbox.admin.config().getsongbpm.apiKeys[0],
      }),
      { estimatePreview: (mp3) => pool.estimateFromMp3(mp3) },
    );
    const playlists = createPlaylistsModule(handle.db, {
      accounts: spotify.accounts,
      api: spotify.api,
      tempos: tempo.repo,
      listMatchCandidates: async () => candidates,
      queue,
      log: quiet,
    });
    const tempoLookups = createTempoLookups({
      tempo: tempo.service,
      queue,
      audioFeaturesFor: spotifyAudioFeaturesFor(spotify),
      onTemposFound: (userId) => playlists.jobs.trigger(userId),
    });
    const housekeeping = { run: async () => ({}) } as unknown as HousekeepingService;
    // The library scanner is not part of this benchmark yet (a Liked Songs stand-in gives the candidates).
    const library = {
      runUnit: async () => ({ status: 'skipped' as const }),
      requestDueRescans: async () => ({ rescans: 0, created: 0 }),
    };
    await startWorkers(boss, { housekeeping, tempoLookups, library, playlistSync: playlists.jobs }, quiet);

    // Connect, as the connect page does after the token exchange.
    const [{ id: userId }] = (
      await handle.pool.query<{ id: string }>(
        `insert into users (email, name) values ($1, 'Runner') returning id`,
        [`${user}@bench.example`],
      )
    ).rows as [{ id: string }];
    const tokens = sandbox.admin.connect({ userId: user });
    const t0 = performance.now();
    await spotify.connect.connect(userId, { ...tokens, refresh_token: tokens.refresh_token! });

    // The stand-in scanner: Liked Songs, newest first, page by page; each page's tracks go to tempo lookups.
    let scan: 'reading' | 'done' | 'quota' = 'reading';
    const scanner = (async () => {
      const api = spotify.api({ userId, purpose: 'scan:liked', priority: 'library_scan' });
      for (let offset = 0; offset < MAX_LIKED;) {
        try {
          const page = await api.savedTracks(offset, Math.min(50, MAX_LIKED - offset));
          const tracks = page.items.map((i) => i.track as unknown as TrackObject);
          const inputs: TrackInput[] = tracks.map((t) => ({
            spotifyId: t.id!,
            isrc: t.external_ids?.isrc ?? null,
            artists: (t.artists ?? []).map((a) => a.name ?? ''),
            title: t.name ?? '',
            durationMs: t.duration_ms ?? 0,
          }));
          for (const [k, t] of tracks.entries())
            candidates.push({
              trackId: t.id!,
              recordingKey: tempoKey(inputs[k]!),
              artistIds: (t.artists ?? []).map((a) => a.id ?? ''),
              durationMs: t.duration_ms ?? 0,
              explicit: t.explicit ?? false,
              fromLikedSongs: true,
              rank: candidates.length,
            });
          if (inputs.length > 0) await tempoLookups.enqueue(inputs, { userId });
          offset += page.items.length;
          if (!page.next || page.items.length === 0) break;
        } catch (err) {
          if (!(err instanceof SpotifyDeferredError)) throw err;
          if (err.reason === 'quota') return void (scan = 'quota');
          await sleep(Math.max(0, err.retryAt.getTime() - Date.now()));
        }
      }
      scan = 'done';
      await playlists.jobs.trigger(userId);
    })();

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
    const busy = async () => {
      for (const name of ['tempo-lookup', 'playlist-sync']) {
        const live = (await boss.findJobs(name)).filter(
          (j) =>
            ['created', 'retry', 'active'].includes(j.state) &&
            j.startAfter.getTime() < Date.now() + 3_600_000,
        );
        if (live.length > 0) return true;
      }
      return false;
    };
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
      if (performance.now() - lastLog > 5_000) {
        lastLog = performance.now();
        const known = [...(await tempo.repo.getByKeys(candidates.map((c) => c.recordingKey))).values()];
        log(
          `  ${user}: ${candidates.length} liked read (${scan}), ${known.filter((k) => k.bpm !== null).length} tempos, ${n} placed, ${await webApiCalls()} Spotify calls, ${((performance.now() - t0) / 1000).toFixed(0)} s`,
        );
      }
      if (scan !== 'reading' && !(await busy())) break;
      if (performance.now() - t0 > MAX_MS) {
        log(`  ${user}: stopped after ${MAX_MS / 60_000} minutes`);
        break;
      }
    }
    await scanner;
    return report({
      user,
      sandbox,
      userId,
      seconds: (performance.now() - t0) / 1000,
      scan,
      candidates,
      first50,
      removed,
      ledger: await spotify.budget.ledger({ userKey: userId }),
      targets: await playlists.repo.listTargets(userId),
      rows: await Promise.all(
        (await playlists.repo.listTargets(userId)).map((t) => playlists.repo.tracksOf(t.id)),
      ),
      tempos: await tempo.repo.getByKeys([...new Set(candidates.map((c) => c.recordingKey))]),
    });
  } finally {
    await boss.stop({ graceful: false, close: true });
    await pool.close();
    await sandbox.close();
    await handle.close();
    await pg.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The runner removes a few placed tracks in their Spotify app (the Web API with their own token). */
async function removeAsUser(
  sandbox: Awaited<ReturnType<typeof startSandbox>>,
  user: string,
  playlists: ReturnType<typeof createPlaylistsModule>,
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
