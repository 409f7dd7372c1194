// Scale-out faults, priced one by one: the test cluster of apps/server/test/scaleout (PostgreSQL, the
// simulated world, 1 serve and 3 work processes, each its own process), a runner's Liked Songs scanned and
// written without faults (the baseline, tempos already known), then once per fault for another Spotify user
// with the same Liked Songs, and once with every fault together. For each: Spotify calls and seconds from
// connect until everything is done, against the baseline, and whether the playlists came out the same
// (no duplicate, no track lost). Not a test.
//
//   node bench/scaleout-faults/run.ts [--liked 100] [--only kill-serve,spotify-5xx] [--no-all]
import { parseArgs } from 'node:util';
import { SCALEOUT_TEST_ENV, startCluster } from '@pacebeat/server/test/scaleout/cluster.ts';
import { connectWithFaults, FAULTS, type Fault } from '@pacebeat/server/test/scaleout/faults.ts';
import {
  copyOfLibrary,
  likedPageReads,
  likedSongsOf,
  newSpotifyUser,
  playlistsInSpotify,
  signUpAndConnect,
  spotifyCalls,
  waitUntilDone,
  type Runner,
} from '@pacebeat/server/test/scaleout/scenario.ts';

const { values } = parseArgs({
  options: {
    liked: { type: 'string', default: '100' },
    only: { type: 'string' },
    'no-all': { type: 'boolean', default: false },
  },
});
const only = values.only ? (values.only.split(',') as Fault[]) : [...FAULTS];
for (const f of only)
  if (!FAULTS.includes(f)) throw new Error(`unknown fault ${f}; one of ${FAULTS.join(', ')}`);

const c = await startCluster({ works: 3, sandboxArgs: ['--size', 'tiny'], env: SCALEOUT_TEST_ENV });
console.log(`cluster up: serve ${c.appUrl}, sandbox ${c.sandboxUrl}, logs ${c.logDir}`);

type Outcome = {
  seconds: number;
  calls: number;
  pagesTwice: number;
  playlists: Awaited<ReturnType<typeof playlistsInSpotify>>;
};
async function measure(r: Runner): Promise<Outcome> {
  const seconds = await waitUntilDone(c, r, 900_000);
  const calls = await spotifyCalls(c, r);
  const pagesTwice = [...likedPageReads(calls).values()].filter((n) => n > 1).length;
  return { seconds, calls: calls.length, pagesTwice, playlists: await playlistsInSpotify(c, r) };
}
function compare(a: Outcome, b: Outcome) {
  let dup = 0;
  let lost = 0;
  let extra = 0;
  for (const [i, p] of b.playlists.entries()) {
    const want = new Set(a.playlists[i]?.trackIds ?? []);
    const got = new Set(p.trackIds);
    dup += p.trackIds.length - got.size;
    lost += [...want].filter((t) => !got.has(t)).length;
    extra += [...got].filter((t) => !want.has(t)).length;
  }
  return { dup, lost, extra };
}

const rows: string[][] = [];
try {
  const template = await newSpotifyUser(c, Number(values.liked));
  const liked = await likedSongsOf(c, template);
  const warm = await measure(await signUpAndConnect(c, template));
  console.log(`warm-up (tempos found): ${warm.seconds.toFixed(1)} s, ${warm.calls} Spotify calls`);
  const base = await measure(await signUpAndConnect(c, await copyOfLibrary(c, liked)));
  const tracks = base.playlists.reduce((n, p) => n + p.trackIds.length, 0);
  console.log(`baseline: ${base.seconds.toFixed(1)} s, ${base.calls} calls, ${tracks} tracks placed`);
  const runs: Array<{ name: string; faults: Fault[] }> = only.map((f) => ({ name: f, faults: [f] }));
  if (!values['no-all'] && !values.only) runs.push({ name: 'all together', faults: [...FAULTS] });
  for (const run of runs) {
    const user = await copyOfLibrary(c, liked);
    const { runner, done } = await connectWithFaults(c, user, run.faults);
    const out = await measure(runner);
    const events = await done();
    const d = compare(base, out);
    rows.push([
      run.name,
      String(out.calls - base.calls),
      (out.seconds - base.seconds).toFixed(1),
      String(d.dup),
      String(d.lost),
      String(d.extra),
      String(out.pagesTwice),
    ]);
    console.log(`${run.name}: ${out.seconds.toFixed(1)} s, ${out.calls} calls`);
    for (const e of events) console.log(`  +${e.at} s ${e.what}`);
  }
} finally {
  await c.close();
}

const head = ['fault', 'extra calls', 'extra s', 'duplicates', 'lost', 'unexpected', 'pages read twice'];
const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (r: string[]) =>
  `| ${r.map((v, i) => (i === 0 ? v.padEnd(width[i]!) : v.padStart(width[i]!))).join(' | ')} |`;
console.log(
  [
    '',
    line(head),
    `|${width.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|')}|`,
    ...rows.map(line),
  ].join('\n'),
);
