// Test harness: the simulated Spotify in-process, the real test PostgreSQL, and Spotify modules that
// stand for separate processes (each has its own pool). Only tests import this file.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { startSandbox, type Sandbox, type SandboxOptions } from '@pacebeat/sandbox';
import { testDb } from '../../test/db.ts';
import { createSpotifyModule, type SpotifyModuleOverrides, type SpotifySettings } from './spotify.module.ts';
import { sandboxSpotifyEndpoints } from './demo.ts';

type DbHandle = ReturnType<typeof testDb>;

export interface Harness {
  sandbox: Sandbox;
  key: string;
  dataDir: string;
  /** A Spotify module on its own pool: one "process". */
  process(
    o?: SpotifyModuleOverrides & { settings?: Partial<SpotifySettings> },
  ): ReturnType<typeof createSpotifyModule>;
  /** A pool of its own on the test database (closed with the harness): what a "process" opens. */
  pool(): DbHandle;
  /** A new Pacebeat user row. */
  newUser(): Promise<string>;
  db: DbHandle;
  sleeps: number[];
  close(): Promise<void>;
}

export async function startHarness(sandboxOptions: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({
    size: 'tiny',
    rateLimit: false,
    dailyQuota: false,
    // Stricter than Spotify: an unknown parameter or a sloppy body from the client fails the test.
    strictRequests: true,
    ...sandboxOptions,
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pacebeat-spotify-'));
  const key = randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', '');
  const handles: DbHandle[] = [];
  const db = testDb();
  handles.push(db);
  const sleeps: number[] = [];
  const log = pino({ level: 'silent' });
  const pool = () => {
    const h = testDb();
    handles.push(h);
    return h;
  };
  return {
    sandbox,
    key,
    dataDir,
    db,
    sleeps,
    pool,
    process({ settings, ...o } = {}) {
      return createSpotifyModule(pool().db, {
        spotify: sandboxSpotifyEndpoints(sandbox),
        settings: {
          SPOTIFY_RATE_PER_30S: null,
          SPOTIFY_DAILY_QUOTA: null,
          SPOTIFY_TIMEOUT_SECONDS: 5,
          TOKEN_ENCRYPTION_KEY: key,
          dataDir,
          ...settings,
        },
        log,
        budgetKey: o.budgetKey ?? `test-${randomUUID()}`,
        sleep: async (ms) => {
          sleeps.push(ms);
        },
        ...o,
      });
    },
    async newUser() {
      const rows = await db.db.execute<{ id: string }>(
        sql`insert into users (email, name) values (${`s-${randomUUID()}@example.org`}, 'Runner') returning id`,
      );
      return rows.rows[0]!.id;
    },
    async close() {
      await sandbox.close();
      for (const h of handles) await h.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
