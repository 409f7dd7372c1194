// Backup and restore round trips on real PostgreSQL databases of their own (created on the test server):
// back up a database a real app filled, restore it into an empty one, then sign in and use Spotify there.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { startSandbox, type Sandbox } from '@pacebeat/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spotifyTestAppDeps, testOrigins } from '../../../test/accounts-app.ts';
import { createAccountsModule } from '../../accounts/accounts.module.ts';
import { loadConfig } from '../../app/config.ts';
import { buildApp } from '../../app/http-app.ts';
import { sandboxSpotifyEndpoints } from '../../spotify/demo.ts';
import { createSpotifyModule } from '../../spotify/spotify.module.ts';
import { keyId, parseKey } from '../../spotify/token-crypto.ts';
import { createDb } from '../client.ts';
import { emptyTestDatabase } from '../../../test/db.ts';
import { knownMigrations, runMigrations } from '../migrate.ts';
import { writeBackup } from './backup.ts';
import { BackupFormatError } from './format.ts';
import { restoreBackup, RestoreRefusedError } from './restore.ts';
import { appTables } from './schema-info.ts';

const KEY = randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', '');
const KEY_ID = keyId(parseKey(KEY));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pacebeat-backup-test-'));
const log = pino({ level: 'silent' });
const config = loadConfig({});

const newDatabase = () => emptyTestDatabase('backup');

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text)).rows;
  } finally {
    await c.end();
  }
}

/** Every table's row count and a digest of its rows, sorted: equal digests, equal data. */
async function fingerprint(url: string): Promise<Record<string, string>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const out: Record<string, string> = {};
    for (const t of await appTables(c)) {
      const { rows } = await c.query<{ n: string; digest: string | null }>(
        `select count(*) as n, md5(string_agg(t::text, '|' order by t::text)) as digest from public."${t.name}" t`,
      );
      out[t.name] = `${rows[0]!.n}:${rows[0]!.digest}`;
    }
    const { rows } = await c.query<{ hash: string }>(
      'select hash from drizzle.__drizzle_migrations order by id',
    );
    out['drizzle migrations'] = rows.map((r) => r.hash).join(',');
    return out;
  } finally {
    await c.end();
  }
}

/** The real app (accounts and Spotify) on one database, against the simulated Spotify. */
async function appOn(url: string, sandbox: Sandbox) {
  const handle = createDb(url, { max: 4 });
  const accounts = createAccountsModule(handle.db, { settings: { ...config, embedded: false }, log });
  const spotify = createSpotifyModule(handle.db, {
    spotify: sandboxSpotifyEndpoints(sandbox),
    settings: {
      SPOTIFY_RATE_PER_30S: null,
      SPOTIFY_DAILY_QUOTA: null,
      SPOTIFY_TIMEOUT_SECONDS: 5,
      TOKEN_ENCRYPTION_KEY: KEY,
      dataDir: tmp,
    },
    log,
  });
  const app: FastifyInstance = await buildApp(
    {
      ...spotifyTestAppDeps(accounts, spotify, testOrigins(config)),
    },
    { loggerInstance: log },
  );
  return {
    app,
    spotify,
    async close() {
      await app.close();
      await accounts.close();
      await handle.close();
    },
  };
}

describe('backup and restore', () => {
  let sandbox: Sandbox;
  let source: string;
  let file: string;
  const email = `backup-${randomUUID()}@example.org`;
  const password = 'run4fun!';
  let userId: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ size: 'tiny', rateLimit: false, dailyQuota: false });
    source = await newDatabase();
    const handle = createDb(source);
    await runMigrations(handle);
    await handle.close();
    // A user who signs up and connects Spotify, and what that leaves behind (session, attempts, ledger).
    const s = await appOn(source, sandbox);
    const signup = await s.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { email, name: 'Runner', password },
    });
    expect(signup.statusCode).toBe(200);
    userId = (await query<{ id: string }>(source, `select id from users`))[0]!.id;
    const spotifyUser = sandbox.admin.createUser({ username: `b${randomUUID().slice(0, 8)}` });
    const token = sandbox.admin.connect({ userId: spotifyUser.id });
    await s.spotify.connect.connect(userId, { ...token, refresh_token: token.refresh_token! });
    await s.close();
    await query(
      source,
      `insert into tempo_recordings (key, bpm, source, alternatives) values ('isrc:X1', 171.5, 'deezer', '[{"bpm":85.75,"source":"estimator","confidence":0.5}]'), ('isrc:X2', null, null, '[]')`,
    );
    file = path.join(tmp, 'backup.sql.gz');
    await writeBackup(source, file, { keyId: KEY_ID });
  });
  afterAll(async () => {
    await sandbox.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('restores every table, row for row, into an empty database', async () => {
    const target = await newDatabase();
    const summary = await restoreBackup(target, file, { keyId: KEY_ID });
    expect(summary.upgradedBy).toBe(0);
    expect(summary.rows['users']).toBe(1);
    expect(summary.rows['spotify_accounts']).toBe(1);
    expect(await fingerprint(target)).toEqual(await fingerprint(source));
    // Sequences go on after the restored ids.
    await query(target, `insert into auth_attempts (kind, key, failed) values ('login', 'ip:x', false)`);
    const ids = await query<{ id: string }>(target, 'select id from auth_attempts order by id');
    expect(new Set(ids.map((r) => r.id)).size).toBe(ids.length);
  });

  it('signs in on the restored data and uses Spotify with the restored, still encrypted tokens', async () => {
    const target = await newDatabase();
    await restoreBackup(target, file, { keyId: KEY_ID });
    const t = await appOn(target, sandbox);
    try {
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { provider: 'local', email, password },
      });
      expect(login.statusCode).toBe(200);
      const cookie = login.cookies.find((c) => c.name === 'pacebeat_session')!;
      const whoami = await t.app.inject({
        method: 'GET',
        url: '/api/whoami',
        cookies: { pacebeat_session: cookie.value },
      });
      expect(whoami.json()).toMatchObject({
        data: {
          authenticated: true,
          user: { id: userId, email },
          services: { spotify: { connected: true } },
        },
      });
      const me = await t.spotify.api({ userId, purpose: 'test', priority: 'interactive' }).me();
      expect(me.id).toBeTruthy();
      const row = (
        await query<{ refresh_token_enc: string }>(target, 'select refresh_token_enc from spotify_accounts')
      )[0]!;
      expect(row.refresh_token_enc.startsWith('v1.')).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('refuses a database that is not empty, another key, and a backup cut short (leaving the database empty)', async () => {
    await expect(restoreBackup(source, file, { keyId: KEY_ID })).rejects.toThrow(RestoreRefusedError);
    const target = await newDatabase();
    await expect(restoreBackup(target, file, { keyId: 'another-key' })).rejects.toThrow(
      /not the one this backup/,
    );
    await expect(restoreBackup(target, file, { keyId: null })).rejects.toThrow(/no token encryption key/);
    const text = gunzipSync(fs.readFileSync(file)).toString('utf8');
    const cut = path.join(tmp, 'cut.sql.gz');
    fs.writeFileSync(cut, gzipSync(text.slice(0, text.lastIndexOf('-- end: '))));
    await expect(restoreBackup(target, cut, { keyId: KEY_ID })).rejects.toThrow(BackupFormatError);
    const tampered = path.join(tmp, 'tampered.sql.gz');
    fs.writeFileSync(tampered, gzipSync(text.replace(/^COPY "public"\."users" .*$/m, 'DROP TABLE users;')));
    await expect(restoreBackup(target, tampered, { keyId: KEY_ID })).rejects.toThrow(
      /unexpected line: DROP TABLE/,
    );
    expect(await query(target, `select 1 from pg_tables where schemaname in ('public', 'drizzle')`)).toEqual(
      [],
    );
    await restoreBackup(target, file, { keyId: KEY_ID }); // and it is still usable
    expect(await fingerprint(target)).toEqual(await fingerprint(source));
  });

  it("restores a backup of an older Pacebeat, then applies this one's newer migrations", async () => {
    const known = knownMigrations();
    const older = await newDatabase();
    const c = new pg.Client({ connectionString: older });
    await c.connect();
    await c.query('create schema drizzle');
    await c.query(
      'create table drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)',
    );
    for (const m of known.slice(0, -1)) {
      for (const s of m.statements) await c.query(s);
      await c.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [
        m.hash,
        m.createdAt,
      ]);
    }
    await c.query(`insert into users (email, name) values ('old@example.org', 'Old')`);
    await c.end();
    const oldFile = path.join(tmp, 'older.sql.gz');
    await writeBackup(older, oldFile, { keyId: null });
    const target = await newDatabase();
    const summary = await restoreBackup(target, oldFile, { keyId: null });
    expect(summary.upgradedBy).toBe(1);
    expect((await fingerprint(target))['drizzle migrations']).toBe(known.map((m) => m.hash).join(','));
    expect(await query(target, `select email from users`)).toEqual([{ email: 'old@example.org' }]);
  });
});
