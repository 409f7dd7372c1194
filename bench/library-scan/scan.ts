// One library scan of a simulated user by the product's code (the one composition, compose.ts), each in
// its own fresh database (catalogs are shared per installation, so a second scan in the same database
// would find them read). Units run back to back as the library-scan job would run them.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import type { Sandbox } from '@pacebeat/sandbox';
import { composePacebeat } from '../../apps/server/src/app/compose.ts';
import { loadConfig } from '../../apps/server/src/app/config.ts';
import { createDb } from '../../apps/server/src/db/client.ts';
import { runMigrations } from '../../apps/server/src/db/migrate.ts';
import type { JobQueue } from '../../apps/server/src/app/job-registry.ts';
import { PRIORITIES } from '../../apps/server/src/spotify/budget.ts';
import { sandboxSpotifyEndpoints } from '../../apps/server/src/spotify/demo.ts';
import { runUntilIdle } from '../../apps/server/src/library/scan.service.ts';

const log = pino({ level: 'silent' });

/** Per user first, then shared by the installation. */
export const LIBRARY_TABLES = [
  'library_users',
  'library_sources',
  'library_source_tracks',
  'library_source_artists',
  'library_tracks',
  'library_artists',
  'library_releases',
  'library_artist_releases',
] as const;
export const PER_USER_TABLES = 4;

/** A fresh, migrated database on the benchmark's PostgreSQL server. */
export async function freshDatabase(serverUrl: string) {
  const admin = createDb(serverUrl, { max: 1 });
  const name = `bench_${randomUUID().slice(0, 8)}`;
  await admin.db.execute(sql.raw(`create database ${name}`));
  await admin.close();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = createDb(url.toString(), { max: 6 });
  await runMigrations(handle);
  return handle;
}

export interface ScanRun {
  userId: string;
  /** Runs units until the scan is idle, or until Spotify defers it (then `deferred`). */
  untilIdle(): Promise<{ units: number; deferred?: Date }>;
  /** Same database, a new "process" (new Spotify and library modules, a fresh budget key). */
  restart(): Promise<void>;
  ledger(): Promise<Array<{ endpoint: string; purpose: string; priority: string; calls: number }>>;
  tempoQueued: number;
  candidates(): Promise<number>;
  readTimes(): Promise<{ sourcesMs: number; candidatesMs: number }>;
  sizes(): Promise<Array<{ table: string; rows: number; bytes: number }>>;
  close(): Promise<void>;
}

export async function startScan(
  serverUrl: string,
  sandbox: Sandbox,
  spotifyUser: string,
  config: Record<string, string> = {},
): Promise<ScanRun> {
  const handle = await freshDatabase(serverUrl);
  const dataDir = process.env['TMPDIR'] ?? '/tmp';
  let tempoQueued = 0;
  // The app composed as main.ts composes it (compose.ts); its job queue only counts what it is asked to
  // queue (the benchmark runs the scan's units itself, back to back).
  const jobs: JobQueue = {
    send: async (name, payload) => {
      if (name === 'tempo-lookup') tempoQueued += (payload as { tracks: unknown[] }).tracks.length;
      return randomUUID();
    },
    wake: async () => undefined,
    sooner: async () => undefined,
  };
  const make = () =>
    composePacebeat({
      db: handle.db,
      config: loadConfig({
        ...config,
        DATA_DIR: dataDir,
        TOKEN_ENCRYPTION_KEY: 'cd'.repeat(32),
        SPOTIFY_RATE_PER_30S: 'unlimited',
        SPOTIFY_DAILY_QUOTA: 'unlimited',
      }),
      log,
      embedded: false,
      spotifyEndpoints: sandboxSpotifyEndpoints(sandbox),
      jobs,
      overrides: { spotify: { budgetKey: `bench-${randomUUID()}` } },
    });
  let p = make();
  const rows = await handle.db.execute<{ id: string }>(
    sql`insert into users (email, name) values (${`bench-${randomUUID()}@example.org`}, 'Bench') returning id`,
  );
  const userId = rows.rows[0]!.id;
  const tokens = sandbox.admin.connect({ userId: spotifyUser });
  // The connect's event starts the library (and makes the default targets), as in the product.
  await p.spotify.connect.connect(userId, { ...tokens, refresh_token: tokens.refresh_token! });

  return {
    userId,
    get tempoQueued() {
      return tempoQueued;
    },
    untilIdle: () => runUntilIdle(p.library.scans, userId),
    async restart() {
      await p.accounts.close();
      p = make();
    },
    async ledger() {
      // Each purpose of a scan has one priority (the first pages of a new library are "interactive").
      const rows = await handle.db.execute<{
        endpoint: string;
        purpose: string;
        priority: number;
        calls: number;
      }>(
        sql`select endpoint, purpose, priority, sum(calls)::int as calls from spotify_call_ledger
            where user_key = ${userId} group by endpoint, purpose, priority order by endpoint, purpose`,
      );
      return rows.rows.map((e) => ({
        endpoint: e.endpoint,
        purpose: e.purpose,
        priority: PRIORITIES[e.priority] ?? '?',
        calls: e.calls,
      }));
    },
    /** Rows and bytes (with indexes and TOAST) of the library's tables, per-user ones and shared ones. */
    async sizes() {
      const out: Array<{ table: string; rows: number; bytes: number }> = [];
      for (const table of LIBRARY_TABLES) {
        const r = await handle.db.execute<{ rows: number; bytes: string }>(
          sql.raw(`select count(*)::int as rows, pg_total_relation_size('${table}') as bytes from ${table}`),
        );
        out.push({ table, rows: r.rows[0]!.rows, bytes: Number(r.rows[0]!.bytes) });
      }
      return out;
    },
    /** Median time of the status page's `GET /api/spotify/sources` work, and of `listMatchCandidates`. */
    async readTimes() {
      const median = async (fn: () => Promise<unknown>) => {
        const ms: number[] = [];
        for (let i = 0; i < 5; i++) {
          const t = performance.now();
          await fn();
          ms.push(performance.now() - t);
        }
        return ms.sort((a, b) => a - b)[2]!;
      };
      return {
        sourcesMs: await median(() => p.library.service.sources(userId, { timeZone: 'Europe/Stockholm' })),
        candidatesMs: await median(() => p.library.listMatchCandidates(userId)),
      };
    },
    async candidates() {
      return (await p.library.listMatchCandidates(userId)).length;
    },
    async close() {
      await p.accounts.close();
      await handle.close();
    },
  };
}
