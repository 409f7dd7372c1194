// A measurement, not a check (run with MEASURE_TRACK_LISTS=1): another runner's latency while one runner
// keeps eight Waiting/Skipped reads of a 1,850-track library in flight.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { WhoamiReply } from '@pacebeat/contract';
import { createLibraryRepository } from '../library/library.repository.ts';
import { testDb } from '../../test/db.ts';
import { choicesApp } from '../../test/choices-app.ts';
import { choicesFixtures } from './choices.test-helper.ts';

const LIBRARY = 1850;
const IN_FLIGHT = 8;

describe.runIf(process.env['MEASURE_TRACK_LISTS'])('track lists under load', () => {
  const handle = testDb();
  afterAll(() => handle.close());

  it('measures another runner’s median latency', { timeout: 600_000 }, async () => {
    const fx = choicesFixtures(handle.db);
    const library = createLibraryRepository(handle.db);
    const app = await choicesApp(handle.db, fx, {
      env: { SIGNUP_MAX_PER_ADDRESS: '1000' },
      listMatchCandidates: (userId) => library.listMatchCandidates(userId),
    });

    const runner = async (tracks: number) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/signup',
        remoteAddress: '10.77.0.1',
        payload: { email: `m-${randomUUID()}@example.org`, name: 'Runner', password: 'run4fun!' },
      });
      const c = res.cookies.find((x) => x.name === 'pacebeat_session')!;
      const cookie = `pacebeat_session=${c.value}`;
      const who = WhoamiReply.parse((await app.inject({ url: '/api/whoami', headers: { cookie } })).json());
      const userId = who.data.user!.id;
      const ids = await fx.targets(userId);
      const artists = await Promise.all(Array.from({ length: 40 }, (_, i) => fx.artist(`Artist ${i}`)));
      for (let i = 0; i < tracks; i++) {
        const bpm = i % 10 === 0 ? null : 60 + ((i * 7) % 140);
        await fx.track({ of: userId, artists: [artists[i % 40]!], bpm, confidence: i % 3 ? 0.85 : 0.5 });
      }
      return { cookie, ids };
    };
    const a = await runner(LIBRARY);
    const b = await runner(30);
    const read = (r: { cookie: string }, targetId: string, list: string) =>
      app.inject({
        url: `/api/spotify/targets/${targetId}/tracks?list=${list}`,
        headers: { cookie: r.cookie },
      });

    const measureB = async (n: number) => {
      const ms: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        const res = await read(b, b.ids[170]!, 'waiting');
        ms.push(performance.now() - t0);
        expect(res.statusCode).toBe(200);
      }
      ms.sort((x, y) => x - y);
      return { median: ms[Math.floor(n / 2)]!, p90: ms[Math.floor(n * 0.9)]! };
    };
    await measureB(10); // warm up
    const quiet = await measureB(40);

    let stop = false;
    let aReads = 0;
    const aMs: number[] = [];
    const lists = ['waiting', 'skipped'];
    const targets = Object.values(a.ids);
    const loops = Array.from({ length: IN_FLIGHT }, async (_, i) => {
      while (!stop) {
        const t0 = performance.now();
        const res = await read(a, targets[i % targets.length]!, lists[i % 2]!);
        aMs.push(performance.now() - t0);
        expect(res.statusCode).toBe(200);
        aReads++;
      }
    });
    await new Promise((r) => setTimeout(r, 1000));
    const loaded = await measureB(40);
    stop = true;
    await Promise.all(loops);
    aMs.sort((x, y) => x - y);
    console.log(
      JSON.stringify({
        library: LIBRARY,
        inFlight: IN_FLIGHT,
        otherRunnerQuiet: quiet,
        otherRunnerLoaded: loaded,
        heavyReads: aReads,
        heavyReadMedianMs: aMs[Math.floor(aMs.length / 2)],
      }),
    );
    await app.close();
  });
});
