// The shared budget on the real test PostgreSQL. Two pools stand for two processes.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { connectedRunner as addRunner } from '../../test/connected-runner.ts';
import { testDb } from '../../test/db.ts';
import {
  allowance,
  CEILINGS,
  PACE_WINDOW_MS,
  paceAllowance,
  RATE_SAFETY_MS,
  RATE_WINDOW_MS,
  runnerShare,
  type BudgetLimits,
  type Priority,
} from './budget.ts';
import {
  LEARNED_RATE_FLOOR,
  LEARNED_RATE_TTL_MS,
  LEDGER_GONE_KEY,
  createBudgetRepository,
} from './budget.repository.ts';

const processA = testDb();
const processB = testDb();
afterAll(async () => {
  await processA.close();
  await processB.close();
});
const a = createBudgetRepository(processA.db);
const b = createBudgetRepository(processB.db);
const entry = (userKey = 'u1', endpoint = 'GET /me', purpose = 'test') => ({
  userKey,
  endpoint,
  purpose,
  priority: 'interactive' as const,
});

/** Moves every slot of a budget one pace window into the past: still in the 30 s window, out of the pace's. */
async function paceLater(key: string) {
  const ms = PACE_WINDOW_MS + RATE_SAFETY_MS + 50;
  await processA.db.execute(
    sql`update spotify_call_slots set at = at - ${`${ms} milliseconds`}::interval where budget = ${key}`,
  );
}

/**
 * Takes slots of `priority` until its ceiling of the 30 s window refuses one; whenever only the pace
 * refuses, the slots taken are moved a pace window into the past first. Answers how many were granted.
 */
async function fillWindow(limits: BudgetLimits, priority: Priority, who = () => 'u1'): Promise<number> {
  const rate = limits.ratePer30s!;
  let n = 0;
  for (;;) {
    if ((await (n % 2 ? a : b).reserve(limits, priority, entry(who()))).granted) {
      n++;
      continue;
    }
    const inWindow = (await a.usedSince(limits.key, RATE_WINDOW_MS + RATE_SAFETY_MS)).used;
    const inPace = (await a.usedSince(limits.key, PACE_WINDOW_MS + RATE_SAFETY_MS)).used;
    const paced =
      inWindow < allowance(rate, CEILINGS[priority].rate) &&
      inPace >= paceAllowance(rate, CEILINGS[priority].rate);
    if (!paced) return n;
    await paceLater(limits.key);
  }
}

describe('call budget', () => {
  it('fills the 30 s window by priority: lower priorities stop first, interactive gets the rest', async () => {
    const limits: BudgetLimits = { key: randomUUID(), ratePer30s: 20, dailyQuota: null };
    const granted = async (repo: typeof a, p: Parameters<typeof a.reserve>[1]) =>
      (await repo.reserve(limits, p, entry())).granted;
    expect(await fillWindow(limits, 'catalog_expansion')).toBe(16); // 80 % of 20
    expect(await granted(b, 'library_scan')).toBe(true); // 85 %: one more
    expect(await granted(b, 'library_scan')).toBe(false);
    expect(await granted(a, 'playlist_write')).toBe(true); // 90 %: one more
    expect(await granted(a, 'playlist_write')).toBe(false);
    expect(await granted(b, 'interactive')).toBe(true); // 100 %: the last two
    expect(await granted(a, 'interactive')).toBe(true);
    expect(await granted(b, 'interactive')).toBe(false); // the window is full for everyone
    const denied = await a.reserve(limits, 'interactive', entry());
    expect(denied.granted).toBe(false);
    if (!denied.granted) {
      expect(denied.reason).toBe('rate');
      expect(denied.cooldown).toBe(false);
      // The oldest call of the window leaves it 30 s (plus the safety margin) after it was made.
      const { oldest, now } = await a.usedSince(limits.key, 60_000);
      expect(denied.retryAt.getTime()).toBeGreaterThan(oldest!.getTime() + 29_000);
      expect(denied.retryAt.getTime()).toBeLessThanOrEqual(
        now.getTime() + RATE_WINDOW_MS + RATE_SAFETY_MS + 1,
      );
    }
  });

  it('a window full of playlist writes still lets a runner connect (issue 27: a storm of runners)', async () => {
    // The crowd benchmark at 100 runners: the writes of the runners already there filled every window,
    // and 5 of 100 runners' connects (GET /me, interactive) answered 503 "Spotify asked Pacebeat to wait".
    const limits: BudgetLimits = { key: randomUUID(), ratePer30s: 100, dailyQuota: null };
    expect(await fillWindow(limits, 'playlist_write', () => 'writer')).toBe(90);
    let connects = 0;
    while ((await b.reserve(limits, 'interactive', entry(`newcomer${connects}`))).granted) connects++;
    expect(connects).toBe(10);
  });

  it('paces the work below connects: a burst takes a third of its ceiling in 10 s, connects go at once', async () => {
    // bench:crowd at 1,000 runners: in the first 14 s catalogs, scans and first pages took all 100 calls
    // of the window, and the connects after them found it full for 16 s more (19 answered 503).
    const limits: BudgetLimits = { key: randomUUID(), ratePer30s: 100, dailyQuota: null };
    let catalogs = 0;
    while ((await a.reserve(limits, 'catalog_expansion', entry('scanner'))).granted) catalogs++;
    expect(catalogs).toBe(27); // a third of 80, rounded up
    const paced = await a.reserve(limits, 'catalog_expansion', entry('scanner'));
    expect(paced).toMatchObject({ granted: false, reason: 'rate', cooldown: false });
    if (!paced.granted) {
      // It goes again when the pace window's oldest call leaves it, not when the 30 s window's does.
      const { oldest } = await a.usedSince(limits.key, 60_000);
      expect(paced.retryAt.getTime()).toBeLessThanOrEqual(
        oldest!.getTime() + PACE_WINDOW_MS + RATE_SAFETY_MS + 1,
      );
    }
    // A new runner's first pages have a higher pace (95 % of the window: 32 in 10 s) …
    let firstPages = 0;
    while ((await b.reserve(limits, 'first_pages', entry(`new${firstPages}`))).granted) firstPages++;
    expect(firstPages).toBe(32 - 27);
    // … and a connect is not paced: the rest of the window is there for the next runners.
    let connects = 0;
    while ((await b.reserve(limits, 'interactive', entry(`newcomer${connects}`))).granted) connects++;
    expect(connects).toBe(100 - 32);
  });

  it('a new runner’s first pages stop at 95 % of the window, below the connects', async () => {
    const limits: BudgetLimits = { key: randomUUID(), ratePer30s: 100, dailyQuota: null };
    let i = 0;
    expect(await fillWindow(limits, 'first_pages', () => `runner${i++}`)).toBe(95);
    let connects = 0;
    while ((await b.reserve(limits, 'interactive', entry(`newcomer${connects}`))).granted) connects++;
    expect(connects).toBe(5);
  });

  it('keeps the daily quota across processes, with a reserve for what users wait for', async () => {
    const limits: BudgetLimits = { key: randomUUID(), ratePer30s: null, dailyQuota: 20 };
    // Callers that are no connected runners: each alone has a share of 18, its scans 80 % of that (14).
    let scans = 0;
    for (let i = 0; i < 30; i++) {
      const repo = i % 2 ? a : b;
      if ((await repo.reserve(limits, 'library_scan', entry(i % 2 ? 'u1' : 'u2'))).granted) scans++;
    }
    expect(scans).toBe(16); // 80 % of 20
    const denied = await a.reserve(limits, 'catalog_expansion', entry('u3'));
    expect(denied).toMatchObject({ granted: false, reason: 'quota' });
    let interactive = 0;
    while ((await b.reserve(limits, 'interactive', entry(`u${4 + (interactive % 2)}`))).granted)
      interactive++;
    expect(interactive).toBe(4);
  });

  it('a cooldown set by one process holds every process until it ends, and is never shortened', async () => {
    const limits: BudgetLimits = { key: randomUUID(), ratePer30s: 100, dailyQuota: 1000 };
    const until = await a.setCooldown(limits.key, 'quota', 14 * 3600_000, 'Too many requests');
    await a.setCooldown(limits.key, 'quota', 1000, 'shorter');
    const denied = await b.reserve(limits, 'interactive', entry());
    expect(denied).toMatchObject({ granted: false, reason: 'quota', cooldown: true });
    if (!denied.granted) expect(denied.retryAt.getTime()).toBe(until.getTime());
    expect((await b.activeCooldowns(limits.key)).map((c) => c.kind)).toEqual(['quota']);
    // Other apps' budgets are not affected.
    expect((await b.reserve({ ...limits, key: randomUUID() }, 'interactive', entry())).granted).toBe(true);
  });

  it('learns Spotify’s rate limit from a 429 and uses it in every process instead of a higher setting', async () => {
    const limits: BudgetLimits = { key: randomUUID(), ratePer30s: 100, dailyQuota: null };
    const slots: Date[] = [];
    for (let i = 0; i < 15; i++) {
      const r = await a.reserve(limits, 'interactive', entry());
      if (!r.granted) throw new Error('expected a slot');
      slots.push(r.at);
    }
    // The 13th call was answered 429 while the 14th and 15th were still on their way: Spotify allows 12.
    expect(await a.learnRate(limits.key, slots[12]!)).toBe(12);
    expect(await b.reserve(limits, 'interactive', entry())).toMatchObject({ granted: false, reason: 'rate' });
    // The in-flight calls' 429s read higher; the lower reading stays.
    expect(await b.learnRate(limits.key, slots[14]!)).toBe(12);
    // An app with an unlimited setting learns too.
    const open: BudgetLimits = { key: randomUUID(), ratePer30s: null, dailyQuota: null };
    for (let i = 0; i < LEARNED_RATE_FLOOR + 3; i++) await a.reserve(open, 'interactive', entry());
    const last = await a.reserve(open, 'interactive', entry());
    if (!last.granted) throw new Error('expected a slot');
    expect(await a.learnRate(open.key, last.at)).toBe(LEARNED_RATE_FLOOR + 3);
    expect((await a.reserve(open, 'interactive', entry())).granted).toBe(false);
  });

  it('a 429 after a quiet spell teaches no rate below the floor, and a learned rate lasts an hour', async () => {
    const limits: BudgetLimits = { key: randomUUID(), ratePer30s: 100, dailyQuota: null };
    const first = await a.reserve(limits, 'interactive', entry());
    if (!first.granted) throw new Error('expected a slot');
    // Refused with nothing else in the window: not "1 call per 30 s for everyone".
    expect(await a.learnRate(limits.key, first.at)).toBe(LEARNED_RATE_FLOOR);
    for (let i = 1; i < LEARNED_RATE_FLOOR; i++)
      expect((await b.reserve(limits, 'interactive', entry())).granted).toBe(true);
    expect(await b.reserve(limits, 'interactive', entry())).toMatchObject({ granted: false, reason: 'rate' });
    // Learned more than LEARNED_RATE_TTL_MS ago: the setting applies again.
    await processA.db.execute(
      sql`update spotify_budget_state set learned_at = now() - ${`${LEARNED_RATE_TTL_MS + 60_000} milliseconds`}::interval
          where budget = ${limits.key}`,
    );
    expect((await b.reserve(limits, 'interactive', entry())).granted).toBe(true);
  });

  it('counts calls and failures per day, user, endpoint and purpose', async () => {
    const user = randomUUID();
    const limits: BudgetLimits = { key: randomUUID(), ratePer30s: null, dailyQuota: null };
    await a.reserve(limits, 'interactive', entry(user, 'GET /me', 'connect'));
    await b.reserve(limits, 'library_scan', entry(user, 'GET /me/tracks', 'scan:liked'));
    await a.reserve(limits, 'library_scan', entry(user, 'GET /me/tracks', 'scan:liked'));
    await b.countFailure(entry(user, 'GET /me/tracks', 'scan:liked'));
    await a.countUnbudgeted(entry(user, 'POST /api/token', 'refresh'), false);
    expect(await a.ledger({ userKey: user })).toEqual([
      { endpoint: 'GET /me', purpose: 'connect', calls: 1, failures: 0 },
      { endpoint: 'GET /me/tracks', purpose: 'scan:liked', calls: 2, failures: 1 },
      { endpoint: 'POST /api/token', purpose: 'refresh', calls: 1, failures: 0 },
    ]);
    // After a disconnect today's rows stay the user's (what they may still spend today); earlier
    // days' rows leave the user and still count, under `gone`.
    await processA.db.execute(
      sql`update spotify_call_ledger set day = day - 1 where user_key = ${user} and purpose = 'scan:liked'`,
    );
    const goneBefore = await a.ledger({ userKey: LEDGER_GONE_KEY });
    const sum = (rows: { calls: number }[]) => rows.reduce((n, r) => n + r.calls, 0);
    await a.forgetUserInLedger(user);
    expect(await a.ledger({ userKey: user })).toEqual([
      { endpoint: 'GET /me', purpose: 'connect', calls: 1, failures: 0 },
      { endpoint: 'POST /api/token', purpose: 'refresh', calls: 1, failures: 0 },
    ]);
    expect(sum(await a.ledger({ userKey: LEDGER_GONE_KEY })) - sum(goneBefore)).toBeGreaterThanOrEqual(2);
  });

  it('remembers capabilities', async () => {
    const cap = `cap-${randomUUID()}`;
    expect(await a.getCapability(cap)).toBeUndefined();
    await a.setCapability(cap, false, 'Forbidden');
    expect(await b.getCapability(cap)).toEqual({ available: false, detail: 'Forbidden' });
  });

  describe('each runner’s fair share of the day (issue 24)', () => {
    const connectedRunner = () => addRunner(processA.db);
    const spend = async (
      limits: BudgetLimits,
      runner: string,
      p: Parameters<typeof a.reserve>[1],
      max = 10_000,
    ) => {
      let n = 0;
      while (n < max && (await (n % 2 ? a : b).reserve(limits, p, entry(runner))).granted) n++;
      return n;
    };

    it('splits the day between the runners of the day, keeping a part for the next one', () => {
      expect(runnerShare(1000, 1)).toBe(900);
      expect(runnerShare(1000, 2)).toBe(450);
      expect(runnerShare(1000, 4)).toBe(225);
      expect(runnerShare(1000, 5)).toBe(200); // the user list is full: nothing kept back
    });

    it("a runner's catalogs before their first 50 go with the writes in the window, within the catalogs' day", async () => {
      // The window: past the catalogs' 80 %, up to the writes' 90 %.
      const rate: BudgetLimits = { key: randomUUID(), ratePer30s: 20, dailyQuota: null };
      expect(await fillWindow(rate, 'catalog_expansion')).toBe(16);
      expect(await fillWindow(rate, 'first_catalogs')).toBe(2);
      expect((await a.reserve(rate, 'library_scan', entry())).granted).toBe(false);
      // The day: the same 60 % of the runner's share as any catalog read.
      const day: BudgetLimits = { key: randomUUID(), ratePer30s: null, dailyQuota: 100 };
      expect(await spend(day, await connectedRunner(), 'first_catalogs')).toBe(54);
    });

    it('a runner looping spends only their share, and the other runner’s calls go on', async () => {
      const limits: BudgetLimits = { key: randomUUID(), ratePer30s: null, dailyQuota: 100 };
      const [greedy, other] = [await connectedRunner(), await connectedRunner()];
      // Alone today, the greedy runner's catalogs stop at 60 % of their share of 90 (not the installation's 60).
      expect(await spend(limits, greedy, 'catalog_expansion')).toBe(54);
      // Once another runner has called today, each has 45: the greedy one is over theirs and stops,
      const first = await b.reserve(limits, 'interactive', entry(other));
      expect(first.granted).toBe(true);
      const refused = await a.reserve(limits, 'interactive', entry(greedy));
      expect(refused).toMatchObject({ granted: false, reason: 'share', cooldown: false });
      // and resumes when enough of their own calls leave the rolling day, not anyone else's.
      if (!refused.granted) expect(refused.retryAt.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
      // The other runner's calls go on, within the installation's ceilings (catalogs 60, writes 95 of the
      // day's 100, which the greedy runner's 54 count towards) and their own share (45):
      expect(await spend(limits, other, 'catalog_expansion')).toBe(60 - 55);
      expect(await spend(limits, other, 'playlist_write')).toBe(95 - 60);
      expect(await spend(limits, other, 'interactive')).toBe(45 - (1 + 5 + 35));
      expect(await b.reserve(limits, 'interactive', entry(other))).toMatchObject({
        granted: false,
        reason: 'share',
      });
    });

    it('what a runner spent stays counted after their account is disconnected and connected again', async () => {
      const limits: BudgetLimits = { key: randomUUID(), ratePer30s: null, dailyQuota: 50 };
      const runner = await connectedRunner();
      expect(await spend(limits, runner, 'interactive')).toBe(45);
      await processA.db.execute(sql`delete from spotify_accounts where user_id = ${runner}`);
      await addRunner(processA.db, runner);
      expect(await b.reserve(limits, 'interactive', entry(runner))).toMatchObject({
        granted: false,
        reason: 'share',
      });
    });

    it('the first read of a reconnected runner’s own library goes beyond their share, never beyond the day', async () => {
      const limits: BudgetLimits = { key: randomUUID(), ratePer30s: null, dailyQuota: 100 };
      const [runner, other] = [await connectedRunner(), await connectedRunner()];
      expect((await b.reserve(limits, 'interactive', entry(other))).granted).toBe(true);
      expect(await spend(limits, runner, 'interactive')).toBe(45); // two runners today: 45 each
      await processA.db.execute(sql`delete from spotify_accounts where user_id = ${runner}`);
      await addRunner(processA.db, runner);
      // Their share is spent: a later scan waits, the first read of their library does not,
      expect(await a.reserve(limits, 'library_scan', entry(runner))).toMatchObject({
        granted: false,
        reason: 'share',
      });
      let n = 0;
      while (
        (await (n % 2 ? a : b).reserve(limits, 'library_scan', entry(runner), { beyondShare: true })).granted
      )
        n++;
      // up to the installation's day, with the scans' ceiling (80 of 100; 46 were spent).
      expect(n).toBe(80 - 46);
      expect(await a.reserve(limits, 'library_scan', entry(runner), { beyondShare: true })).toMatchObject({
        granted: false,
        reason: 'quota',
      });
    });
  });
});
