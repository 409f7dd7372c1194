import { describe, expect, it } from 'vitest';
import {
  BUSY_RETRY_MS,
  createPlaylistSyncJobs,
  RUNNER_WAITING_JOB_PRIORITY,
  PlaylistSyncPayload,
  SHARED_TEMPOS_EVERY_MS,
  TRIGGER_DELAY_MS,
} from './playlists.jobs.ts';
import type { SyncResult } from './writer.ts';

const USER = '0b6f1f4e-8a52-4c9b-9d7e-2a1c3e5f7a90';
const NOW = Date.UTC(2026, 10, 23, 12, 0);

function setup(
  result: SyncResult,
  firstSongs?: (userId: string) => Promise<boolean>,
  now: () => number = () => NOW,
) {
  const sent: { userId: string; priority?: number; startAfter?: Date; woken?: true; sooner?: true }[] = [];
  const jobs = createPlaylistSyncJobs({
    writer: { sync: async () => result },
    ...(firstSongs ? { firstSongs } : {}),
    queue: {
      send: async (_name, payload, options = {}) => {
        PlaylistSyncPayload.parse(payload);
        sent.push({ ...payload, ...options });
        return 'id';
      },
      wake: async (_name, payload) => {
        PlaylistSyncPayload.parse(payload);
        sent.push({ ...payload, woken: true });
      },
      sooner: async (_name, payload, startAfter) => {
        PlaylistSyncPayload.parse(payload);
        sent.push({ ...payload, startAfter, sooner: true });
      },
    },
    now,
  });
  return { jobs, sent };
}

describe('playlist-sync jobs', () => {
  it('asks for runs of the runners holding tempos another runner found: a runner short of 50 every few seconds, others once a minute', async () => {
    const OTHER = '5d0e2c1a-7b39-4f68-8e21-3c4b5a6d7e8f';
    let t = NOW;
    const short = new Set([USER]);
    const { jobs, sent } = setup(
      { status: 'busy' },
      async (u) => short.has(u),
      () => t,
    );
    expect(await jobs.triggerHolders([USER, OTHER])).toBe(2);
    expect(sent).toEqual([
      {
        userId: USER,
        priority: RUNNER_WAITING_JOB_PRIORITY,
        startAfter: new Date(t + TRIGGER_DELAY_MS),
        sooner: true,
      },
      { userId: OTHER, startAfter: new Date(t + TRIGGER_DELAY_MS) },
    ]);
    // A second job's tempos a moment later: nobody asked again.
    t += SHARED_TEMPOS_EVERY_MS.firstSongs - 1;
    expect(await jobs.triggerHolders([USER, OTHER])).toBe(0);
    // Later: the runner short of 50 is asked again, the other not before a minute has passed.
    t += 1;
    expect(await jobs.triggerHolders([USER, OTHER])).toBe(1);
    expect(sent.at(-1)).toMatchObject({ userId: USER });
    t = NOW + SHARED_TEMPOS_EVERY_MS.steady;
    expect(await jobs.triggerHolders([OTHER])).toBe(1);
    expect(sent.at(-1)).toEqual({ userId: OTHER, startAfter: new Date(t + TRIGGER_DELAY_MS) });
  });

  it('a trigger asks for a run a few seconds later, so a burst of asks makes one run', async () => {
    const { jobs, sent } = setup({ status: 'busy' });
    await jobs.trigger(USER);
    expect(sent).toEqual([{ userId: USER, startAfter: new Date(NOW + TRIGGER_DELAY_MS) }]);
  });

  it('queues the next run when a write must settle, or when another writer is busy', async () => {
    const soon = new Date(NOW + 5_000);
    const settle = setup({ status: 'done', created: 1, added: 3, removed: 0, followUpAt: soon });
    expect(await settle.jobs.run(USER)).toMatchObject({ status: 'done' });
    expect(settle.sent).toEqual([{ userId: USER, startAfter: soon, sooner: true }]);

    const busy = setup({ status: 'busy' });
    await busy.jobs.run(USER);
    expect(busy.sent).toEqual([{ userId: USER, startAfter: new Date(NOW + BUSY_RETRY_MS), sooner: true }]);
  });

  it('a follow-up waits for its songs’ due time, however far (a queued run is moved sooner, never later)', async () => {
    const due = new Date(NOW + 120_000);
    const late = setup({ status: 'done', created: 0, added: 0, removed: 0, followUpAt: due });
    await late.jobs.run(USER);
    expect(late.sent).toEqual([{ userId: USER, startAfter: due, sooner: true }]);
  });

  it('new tempos move a runner’s queued run forward only while they are short of their first 50', async () => {
    let first = true;
    const { jobs, sent } = setup({ status: 'busy' }, async () => first);
    await jobs.trigger(USER);
    first = false;
    await jobs.trigger(USER);
    expect(sent).toEqual([
      {
        userId: USER,
        priority: RUNNER_WAITING_JOB_PRIORITY,
        startAfter: new Date(NOW + TRIGGER_DELAY_MS),
        sooner: true,
      },
      // A plain send: refused while a run is queued, which is due when the waiting songs' company is.
      { userId: USER, startAfter: new Date(NOW + TRIGGER_DELAY_MS) },
    ]);
  });

  it('queues nothing after a finished run, or for a user who is not (or no longer) connected', async () => {
    for (const r of [
      { status: 'done', created: 0, added: 0, removed: 0, followUpAt: null },
      { status: 'not-connected' },
      { status: 'disabled' },
      { status: 'stopped' },
    ] as SyncResult[]) {
      const { jobs, sent } = setup(r);
      await jobs.run(USER);
      expect(sent, r.status).toEqual([]);
    }
  });

  it('a runner’s runs before their first 50 songs go first; after, at the usual priority', async () => {
    let first = true;
    const { jobs, sent } = setup(
      { status: 'done', created: 1, added: 3, removed: 0, followUpAt: new Date(NOW + 1_000) },
      async () => first,
    );
    await jobs.trigger(USER);
    await jobs.run(USER); // its follow-up too
    first = false;
    await jobs.trigger(USER);
    expect(sent.map((x) => x.priority)).toEqual([
      RUNNER_WAITING_JOB_PRIORITY,
      RUNNER_WAITING_JOB_PRIORITY,
      undefined,
    ]);
  });

  it('a run after a runner’s own edit is asked for now, ahead of the background runs, whatever they have placed', async () => {
    const { jobs, sent } = setup({ status: 'busy' }, async () => false);
    await jobs.triggerWatched(USER);
    expect(sent).toEqual([{ userId: USER, priority: RUNNER_WAITING_JOB_PRIORITY, woken: true }]);
  });

  it('takes a user id and a priority', () => {
    expect(PlaylistSyncPayload.safeParse({ userId: USER }).success).toBe(true);
    expect(PlaylistSyncPayload.safeParse({ userId: USER, priority: 1 }).success).toBe(true);
    for (const p of [
      {},
      { userId: 'ana' },
      { userId: USER, extra: 1 },
      { userId: null },
      { userId: USER, priority: 10 },
      { userId: USER, priority: 0.5 },
    ])
      expect(PlaylistSyncPayload.safeParse(p).success).toBe(false);
  });
});
