// The shared tempo cache and the services' pacing on the real test PostgreSQL; two pools stand for
// two processes.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db.ts';
import { createTempoRepository } from './tempo.repository.ts';

const a = testDb();
const b = testDb();
afterAll(async () => {
  await a.close();
  await b.close();
});
const one = createTempoRepository(a.db);
const two = createTempoRepository(b.db);

describe('pacing shared by every process', () => {
  it('grants the burst at one instant across processes, then tells when the next slot comes', async () => {
    const svc = `deezer-${randomUUID()}`;
    const now = new Date('2026-11-22T10:00:00.000Z');
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await (i % 2 ? two : one).takeSlot(svc, now, 100, 250));
    expect(answers.filter((x) => x.ok)).toHaveLength(3);
    const refused = answers[3];
    expect(refused).toEqual({ ok: false, retryAt: new Date(now.getTime() + 50), reason: 'pacing' });
    expect(await one.takeSlot(svc, new Date(now.getTime() + 50), 100, 250)).toEqual({ ok: true });
  });

  it('keeps every process away during a cooldown and never shortens one', async () => {
    const svc = `reccobeats-${randomUUID()}`;
    const now = new Date('2026-11-22T10:00:00.000Z');
    const until = new Date(now.getTime() + 120_000);
    await one.setCooldown(svc, until, 'rate limited (429)');
    await one.setCooldown(svc, new Date(now.getTime() + 5_000), 'quota exceeded (code 4)');
    expect(await two.takeSlot(svc, now, 600, 600)).toMatchObject({ ok: false, retryAt: until });
    expect(await two.takeSlot(svc, new Date(until.getTime() + 1), 600, 600)).toEqual({ ok: true });
  });
});

describe('the shared tempo cache', () => {
  it('upserts one row per recording and counts lookups', async () => {
    const key = `isrc:${randomUUID()}`;
    const base = {
      key,
      isrc: key.slice(5),
      spotifyId: null,
      source: null,
      confidence: 0,
      alternatives: [],
      reason: 'no source knows this track',
      retryAt: new Date(Date.now() + 86_400_000),
      resolvedAt: new Date(),
      bpm: null,
    };
    await one.save([base]);
    await two.save([
      {
        ...base,
        spotifyId: 'abc',
        bpm: 171.5,
        source: 'estimator',
        confidence: 0.7,
        reason: null,
        retryAt: null,
      },
    ]);
    const row = (await one.getByKeys([key])).get(key);
    expect(row).toMatchObject({
      bpm: 171.5,
      source: 'estimator',
      spotifyId: 'abc',
      reason: null,
      retryAt: null,
    });
    expect((row as unknown as { attempts: number }).attempts).toBe(2);
  });
});

describe('migration 0011: tempos cached before checks were required', () => {
  it('marks lone answers above the threshold for a new lookup, and leaves checked and unknown ones alone', async () => {
    const migration = readFileSync(
      fileURLToPath(new URL('../../drizzle/0011_recheck_lone_tempos.sql', import.meta.url)),
      'utf8',
    );
    const alternatives = (sources: string[]) =>
      JSON.stringify(sources.map((source) => ({ bpm: 170, source, confidence: 0.85 })));
    const rows: [string, number | null, number, string[]][] = [
      ['LONE', 170, 0.85, ['reccobeats']],
      ['SAMEFAMILY', 170, 0.9, ['spotify', 'reccobeats']],
      ['CHECKED', 170, 0.9, ['reccobeats', 'deezer']],
      ['BYAUDIO', 170, 0.95, ['deezer', 'estimator']],
      ['BELOW', 170, 0.7, ['reccobeats']],
      ['UNKNOWN', null, 0, []],
    ];
    const marked = await a.db.transaction(async (tx) => {
      // A temporary copy shadows the shared table (pg_temp comes first in the search path), so other
      // test files' tempos are not touched.
      await tx.execute(
        sql`create temp table tempo_recordings (like public.tempo_recordings including defaults) on commit drop`,
      );
      for (const [key, bpm, confidence, sources] of rows)
        await tx.execute(sql`insert into tempo_recordings (key, bpm, confidence, alternatives)
                             values (${key}, ${bpm}, ${confidence}, ${alternatives(sources)}::jsonb)`);
      await tx.execute(sql.raw(migration));
      const r = await tx.execute<{ key: string }>(
        sql`select key from tempo_recordings where retry_at is not null order by key`,
      );
      return r.rows.map((x) => x.key);
    });
    expect(marked).toEqual(['LONE', 'SAMEFAMILY']);
  });
});
