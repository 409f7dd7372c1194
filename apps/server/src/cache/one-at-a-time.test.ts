import { describe, expect, it } from 'vitest';
import { createOneAtATime } from './one-at-a-time.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('createOneAtATime', () => {
  it('runs one owner’s loads one at a time; callers of a waiting key share its load', async () => {
    const run = createOneAtATime<string>();
    let running = 0;
    let most = 0;
    const loads: string[] = [];
    const load = (name: string) => async () => {
      loads.push(name);
      most = Math.max(most, ++running);
      await tick();
      running--;
      return name;
    };
    const a1 = run('u1', 'a', load('a1'));
    await new Promise((r) => setTimeout(r, 1)); // a1 now runs
    const replies = await Promise.all([
      a1,
      run('u1', 'a', load('a2')), // a1 already runs: a new load, after it
      run('u1', 'b', load('b1')),
      run('u1', 'a', load('a3')), // shares a2, which has not started
      run('u1', 'b', load('b2')), // shares b1
    ]);
    expect(replies).toEqual(['a1', 'a2', 'b1', 'a2', 'b1']);
    expect(loads).toEqual(['a1', 'a2', 'b1']);
    expect(most).toBe(1);
  });

  it('never shares a load that started before the caller came, and lets other owners run side by side', async () => {
    const run = createOneAtATime<number>();
    let reads = 0;
    let running = 0;
    let most = 0;
    const load = async () => {
      most = Math.max(most, ++running);
      const n = ++reads;
      await tick();
      running--;
      return n;
    };
    const first = run('u1', 'a', load);
    await new Promise((r) => setTimeout(r, 1)); // the first load now runs
    const second = run('u1', 'a', load);
    expect(await first).toBe(1);
    expect(await second).toBe(2);
    await Promise.all([run('u1', 'a', load), run('u2', 'a', load)]);
    expect(most).toBe(2);
  });

  it('passes a failure to the callers of that load only; the queue goes on', async () => {
    const run = createOneAtATime<string>();
    const failing = run('u1', 'a', async () => {
      throw new Error('boom');
    });
    const next = run('u1', 'b', async () => 'ok');
    await expect(failing).rejects.toThrow('boom');
    expect(await next).toBe('ok');
  });
});
