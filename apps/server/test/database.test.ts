// The migrations and a pg-boss round trip, on the embedded server that the app starts itself
// and on a server given by DATABASE_URL (the one global-setup.ts started).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PgBoss } from 'pg-boss';
import pino from 'pino';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/app/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { runMigrations } from '../src/db/migrate.ts';

const log = pino({ level: 'silent' });

async function roundTrip(db: Database) {
  await runMigrations(db);
  await runMigrations(db); // applying twice is a no-op
  const { rows } = await db.pool.query<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = 'public' order by table_name",
  );
  expect(rows.map((r) => r.table_name)).toEqual(expect.arrayContaining(['sessions', 'users']));

  const boss = new PgBoss({
    connectionString: db.url,
    schema: 'pgboss_test',
    supervise: false,
    schedule: false,
  });
  boss.on('error', () => undefined);
  await boss.start();
  try {
    const queue = `round-trip-${Math.random().toString(36).slice(2)}`;
    await boss.createQueue(queue);
    const received = new Promise<unknown>((resolve) => {
      void boss.work(queue, { pollingIntervalSeconds: 0.5 }, async ([job]) => resolve(job?.data));
    });
    const id = await boss.send(queue, { hello: 'runner', bpm: 170 });
    expect(id).toBeTruthy();
    expect(await received).toEqual({ hello: 'runner', bpm: 170 });
  } finally {
    await boss.stop({ graceful: false, close: true });
  }
}

describe('database', () => {
  const opened: Database[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const db of opened) await db.close();
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });

  it('starts its own embedded PostgreSQL when DATABASE_URL is unset, and reuses the data on restart', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacebeat-embedded-'));
    await fs.chmod(dir, 0o755);
    dirs.push(dir);
    const config = loadConfig({ DATA_DIR: dir });
    const first = await openDatabase(config, log);
    expect(first.embedded).toBe(true);
    await roundTrip(first);
    await first.pool.query("insert into users (email) values ('kept@example.org')");
    await first.close();

    const second = await openDatabase(config, log);
    opened.push(second);
    const { rows } = await second.pool.query("select email from users where email = 'kept@example.org'");
    expect(rows).toHaveLength(1);
  }, 120_000);

  // Only as root does PostgreSQL run as another user ("postgres"); CI and this machine run as root.
  it.runIf(process.getuid?.() === 0)(
    'as root, refuses a DATA_DIR the postgres user cannot enter, with a message that says what to do',
    async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacebeat-closed-')); // mode 0700
      dirs.push(dir);
      const err = await openDatabase(loadConfig({ DATA_DIR: path.join(dir, 'data') }), log).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain(`may not enter ${dir}, so it cannot reach ${dir}/data/pg`);
      expect((err as Error).message).toMatch(/Choose a DATA_DIR under a folder every user may enter/);
      // Nothing was created for the server to trip over later: no cluster, no half-made folder.
      await expect(fs.stat(path.join(dir, 'data', 'pg', 'PG_VERSION'))).rejects.toThrow();
    },
  );

  it('uses the server given by DATABASE_URL', async () => {
    const db = await openDatabase(loadConfig({ DATABASE_URL: inject('databaseUrl') }), log);
    opened.push(db);
    expect(db.embedded).toBe(false);
    expect(db.poolMax).toBe(10);
    await roundTrip(db);
  });

  it('keeps as many connections as DATABASE_POOL_SIZE says, and refuses a size out of range', async () => {
    const db = await openDatabase(
      loadConfig({ DATABASE_URL: inject('databaseUrl'), DATABASE_POOL_SIZE: '3' }),
      log,
    );
    opened.push(db);
    expect(db.poolMax).toBe(3);
    // Four queries at once on three connections: the fourth waits for one of them.
    const held = await Promise.all([1, 2, 3].map(() => db.pool.connect()));
    expect(db.pool.totalCount).toBe(3);
    const fourth = db.pool.query('select 1');
    expect(db.pool.waitingCount).toBe(1);
    held.forEach((c) => c.release());
    await fourth;
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: 'many' })).toThrow(ConfigError);
  });
});
