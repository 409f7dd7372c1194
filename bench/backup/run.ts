// Backup benchmark: the large simulated user's installation, as far as today's tables hold it, backed up
// with `writeBackup` and restored into an empty database with `restoreBackup` (the code of `npm run backup`
// and `npm run restore`). Prints rows per table, the file's size, and the times. Not a test.
//
// The tempo cache gets one row per recording of every track of every artist in the user's library (liked
// songs, playlists, followed artists): what a full library scan resolves. Tables that later features add
// (library tracks and sources, target playlists) are in the backup automatically, but empty here.
//
//   node bench/backup/run.ts [--user max.miles] [--size large]
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { World } from '@pacebeat/sandbox';
import type { WorldSize } from '@pacebeat/sandbox/world/sizes';
import { writeBackup } from '@pacebeat/server/src/db/backup/backup.ts';
import { restoreBackup } from '@pacebeat/server/src/db/backup/restore.ts';
import { createDb } from '@pacebeat/server/src/db/client.ts';
import { startEmbeddedPostgres } from '@pacebeat/server/src/db/embedded.ts';
import { runMigrations } from '@pacebeat/server/src/db/migrate.ts';
import { createTokenCipher, keyId } from '@pacebeat/server/src/spotify/token-crypto.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
};
const USER = option('--user', 'max.miles');
const SIZE = option('--size', 'large') as WorldSize;
const log = (s: string) => process.stderr.write(`${s}\n`);
const mib = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;

const world = new World({ seed: 1, size: SIZE, now: Date.UTC(2026, 10, 1) });
const user = world.user(USER);
if (!user) throw new Error(`no user ${USER} in the ${SIZE} world`);

// Every track a full scan reads: the library's tracks, then every track of every artist in it.
const libraryTracks = new Set<number>(user.liked.map((l) => l.g));
for (const p of user.playlists)
  for (const e of world.playlists[p]?.entries ?? []) if (e.g !== undefined) libraryTracks.add(e.g);
const artists = new Set<number>(user.followedArtists);
for (const g of libraryTracks) for (const i of world.catalog.track(g).artists) artists.add(i);
const tracks = new Set<number>(libraryTracks);
for (const i of artists) for (const g of world.catalog.creditedTracks(i)) tracks.add(g);
log(
  `${USER}: ${libraryTracks.size} library tracks, ${artists.size} artists, ${tracks.size} tracks in their catalogs`,
);

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacebeat-bench-backup-'));
await fs.chmod(dir, 0o755);
const server = await startEmbeddedPostgres(path.join(dir, 'pg'), pino({ level: 'silent' }));
// The superuser's URL: the app's own role (server.url) may not create databases.
const dbUrl = (name: string) => server.adminUrl.replace(/\/pacebeat$/, `/${name}`);
const admin = new pg.Client({ connectionString: server.adminUrl });
await admin.connect();
for (const name of ['source', 'target']) await admin.query(`create database ${name}`);
await admin.end();
const handle = createDb(dbUrl('source'));
await runMigrations(handle);

try {
  const db = handle.pool;
  const key = randomBytes(32);
  const cipher = createTokenCipher(key);
  const { rows } = await db.query<{ id: string }>(
    `insert into users (email, name, password_hash) select 'runner' || n || '@example.org', 'Runner ' || n,
       '$argon2id$v=19$m=19456,t=2,p=1$' || md5(n::text) from generate_series(1, 5) n returning id`,
  );
  const userId = rows[0]!.id;
  await db.query(
    `insert into spotify_accounts (user_id, account_id, spotify_user_id, scopes, refresh_token_enc, access_token_enc)
     values ($1, $2, $3, 'user-library-read playlist-modify-private', $4, $5)`,
    [
      userId,
      user.accountId,
      user.id,
      cipher.encrypt(`AQ${randomUUID()}`, userId),
      cipher.encrypt(`BQ${randomUUID()}`, userId),
    ],
  );
  await db.query(
    `insert into sessions (id, user_id, expires_at) select md5(n::text || $1), $1::uuid, now() + interval '14 days' from generate_series(1, 3) n`,
    [userId],
  );
  // A full day of Spotify calls: the slots of the rolling window and the ledger.
  await db.query(`insert into spotify_call_slots (budget, at, priority)
    select 'app', now() - (n || ' seconds')::interval, 2 from generate_series(1, 1000) n`);
  await db.query(
    `insert into spotify_call_ledger (day, user_key, endpoint, purpose, priority, calls)
    values (current_date, $1, 'GET /me/tracks', 'scan:liked', 2, 200), (current_date, $1, 'GET /artists/{id}/albums', 'scan:artists', 2, 600),
           (current_date, $1, 'GET /albums', 'scan:artists', 2, 190), (current_date, $1, 'GET /me', 'connect', 0, 10)`,
    [userId],
  );

  // The tempo cache: one row per recording, sources in plausible shares, 1 % unknown.
  const sources = ['reccobeats', 'reccobeats', 'reccobeats', 'deezer', 'deezer', 'getsongbpm', 'estimator'];
  const seen = new Set<string>();
  let batch: unknown[][] = [[], [], [], [], [], [], []];
  const flush = async () => {
    await db.query(
      `insert into tempo_recordings (key, isrc, spotify_id, bpm, source, confidence, alternatives, reason, retry_at)
       select k, i, s, b, src, c, a::jsonb, r, case when b is null then now() + interval '30 days' end
       from unnest($1::text[], $2::text[], $3::text[], $4::real[], $5::text[], $6::real[], $7::text[]) as t(k, i, s, b, src, c, a),
            lateral (select case when b is null then 'no source knows this recording' end as r) x`,
      batch,
    );
    batch = [[], [], [], [], [], [], []];
  };
  let n = 0;
  for (const g of tracks) {
    const f = world.trackFacts(g);
    const k = `isrc:${f.isrc}`;
    if (seen.has(k)) continue;
    seen.add(k);
    n++;
    const unknown = n % 100 === 0;
    const source = sources[n % sources.length]!;
    const alternatives =
      source === 'estimator' ? [{ bpm: f.bpm / 2, source: 'deezer', confidence: 0.4 }] : [];
    const values = [
      k,
      f.isrc,
      f.spotifyId,
      unknown ? null : f.bpm,
      unknown ? null : source,
      unknown ? 0 : 0.8,
      JSON.stringify(alternatives),
    ];
    values.forEach((v, i) => batch[i]!.push(v));
    if (batch[0]!.length >= 5000) await flush();
  }
  if (batch[0]!.length) await flush();
  await handle.close();

  const file = path.join(dir, 'backup.sql.gz');
  const b = await writeBackup(dbUrl('source'), file, { keyId: keyId(key) });
  const rss = process.memoryUsage().rss;
  const r = await restoreBackup(dbUrl('target'), file, { keyId: keyId(key) });
  const total = Object.values(b.rows).reduce((a, c) => a + c, 0);
  console.log(
    `rows: ${total} (${Object.entries(b.rows)
      .filter(([, c]) => c > 0)
      .map(([t, c]) => `${t} ${c}`)
      .join(', ')})`,
  );
  console.log(
    `backup: ${mib(b.bytes)} gzip'd in ${b.seconds.toFixed(1)} s (${Math.round(total / b.seconds)} rows/s); bench RSS ${mib(rss)}`,
  );
  console.log(
    `restore: ${r.seconds.toFixed(1)} s into an empty database (${Math.round(total / r.seconds)} rows/s)`,
  );
} finally {
  await server.stop();
  await fs.rm(dir, { recursive: true, force: true });
}
