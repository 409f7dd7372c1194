// Many tempo lookups waiting for one outside service, on the real test PostgreSQL: each call
// takes one pacing statement. Before, every waiter slept until the next free slot, all woke together and
// asked again, one won: a statement per waiter per slot on the one row every process shares (the crowd
// benchmark: 26,041 such statements in 5 minutes for 10 runners, 15 ms each, the top of pg_stat_statements).
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { testDb } from '../../../test/db.ts';
import { createTempoRepository } from '../tempo.repository.ts';
import { createServiceCaller, type Pacer } from './outside.ts';

const t = testDb();
afterAll(() => t.close());
const repo = createTempoRepository(t.db);

describe('waiting for a paced service', () => {
  it('takes one pacing statement per call, however many wait, and keeps the pace', async () => {
    let statements = 0;
    const slots: number[] = [];
    const pacer: Pacer = {
      takeSlot: async (...args) => {
        statements++;
        const answer = await repo.takeSlot(...args);
        if (answer.ok) slots.push(answer.at?.getTime() ?? args[1].getTime());
        return answer;
      },
      setCooldown: (...args) => repo.setCooldown(...args),
    };
    const sent: number[] = [];
    const caller = createServiceCaller({
      service: 'deezer',
      pacerKey: `deezer-${randomUUID()}`,
      pacer,
      ratePerSecond: 20,
      timeoutMs: 5000,
      fetch: async () => {
        sent.push(Date.now());
        return new Response('{}');
      },
    });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => caller.getText(`http://deezer.test/track/${i}`)),
    );
    expect(answers.every((a) => a.kind === 'ok')).toBe(true);
    expect(sent).toHaveLength(12);
    expect(statements).toBe(12);
    // Still paced: at 20 a second with a burst of 250 ms, the twelfth slot is (12 - 1) × 50 - 250 ms after
    // the first at the earliest, and no call goes before its slot (each waiter sleeps until its own; in
    // order, the k-th call sent is not before the k-th slot). The calls' own spread is not asserted: on a
    // slow machine the first call may go late, which narrows it without breaking the pace.
    expect(slots).toHaveLength(12);
    slots.sort((a, b) => a - b);
    sent.sort((a, b) => a - b);
    expect(slots[11]! - slots[0]!).toBeGreaterThanOrEqual(11 * 50 - 250);
    // Less 5 ms: Node's timers may fire a millisecond early.
    sent.forEach((at, k) => expect(at).toBeGreaterThanOrEqual(slots[k]! - 5));
  });

  it('a background call takes only a slot free at once: it gives way to callers waiting, and goes when they are done', async () => {
    const key = `deezer-${randomUUID()}`;
    const sent: string[] = [];
    const caller = createServiceCaller({
      service: 'deezer',
      pacerKey: key,
      pacer: repo,
      ratePerSecond: 4,
      timeoutMs: 5000,
      fetch: async (url) => {
        sent.push(String(url));
        return new Response('{}');
      },
    });
    expect(await caller.hasRoom()).toBe(true);
    // Foreground callers take the pace 3 s ahead (each may wait 3 s for its slot).
    for (let i = 0; i < 12; i++) await repo.takeSlot(key, new Date(), 250, 250, 3000);
    expect(await caller.hasRoom()).toBe(false);
    const before = Date.now();
    const deferred = await caller.getText('http://deezer.test/track/background', {
      background: { waitMs: 600, retryMs: 700 },
    });
    expect(deferred).toMatchObject({ kind: 'deferred', reason: expect.stringContaining('background') });
    expect(deferred.kind === 'deferred' && deferred.retryAt.getTime()).toBeGreaterThanOrEqual(before + 700);
    expect(sent).toEqual([]);
    // The same call, waiting long enough: it goes once the reserved slots have passed, not before.
    const ok = await caller.getText('http://deezer.test/track/background', {
      background: { waitMs: 10_000, retryMs: 10_000 },
    });
    expect(ok.kind).toBe('ok');
    expect(sent).toEqual(['http://deezer.test/track/background']);
    expect(Date.now() - before).toBeGreaterThanOrEqual(3000 - 250 - 100);
  });

  it('reserves at most the allowed wait ahead; a caller beyond it is deferred', async () => {
    const svc = `previews-${randomUUID()}`;
    const now = new Date('2026-11-27T10:00:00.000Z');
    // 1 a second, burst 1 s, wait up to 3 s: two now, then slots at +1, +2 and +3 s, then refused.
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await repo.takeSlot(svc, now, 1000, 1000, 3000));
    expect(answers.slice(0, 2)).toEqual([{ ok: true }, { ok: true }]);
    expect(answers.slice(2, 5).map((a) => (a.ok && a.at ? a.at.getTime() - now.getTime() : null))).toEqual([
      1000, 2000, 3000,
    ]);
    expect(answers[5]).toEqual({ ok: false, retryAt: new Date(now.getTime() + 4000), reason: 'pacing' });
  });
});
