// Runs: every preset built (and rebuilt) for simulated runners of three library sizes, from what the
// product knows of their library after a few minutes of its real pipeline (scan, tempo lookups, the
// estimator), composed as main.ts composes it on real pg-boss and PostgreSQL, in extended-quota semantics
// (100 calls per 30 s, no daily quota). Scored against the world's true tempos. Not a test. See README.md.
//
//   node bench/runs/run.ts [--minutes 5] [--sizes small,default,large] [--json out.json]
import fs from 'node:fs/promises';
import { RUN_PRESETS, RUN_PRESET_NAMES, runPreset, unfoldRun, type Run } from '@pacebeat/contract';
import { closestSameArtist, longestArtistRun } from '@pacebeat/server/src/playlists/spread.ts';
import { spanOf } from '@pacebeat/server/src/playlists/matching.ts';
import { boundaryMisses, runFit } from '@pacebeat/server/src/runs/build.ts';
import { startComposedApp } from '../shared/composed-app.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
};
const MINUTES = Number(option('--minutes', '5'));
const SIZES = option('--sizes', 'small,default,large').split(',') as Array<'small' | 'default' | 'large'>;
const JSON_OUT = option('--json', '');
const RUNNER: Record<string, string> = { small: 'ana.runs', default: 'ana.runs', large: 'max.miles' };
const log = (s: string) => process.stderr.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

interface Row {
  size: string;
  preset: string;
  plannedS: number;
  songs: number;
  totalS: number;
  boundaryP95S: number;
  boundaryMaxS: number;
  trueFit: number;
  trueFitOf: number;
  longestArtistRun: number;
  closestSameArtist: number;
  overlapWithPrevious: number;
  callsFirst: number;
  callsRebuild: number;
  sandboxCalls: number;
  buildMs: number;
  rebuildMs: number;
  poolNotes: number;
}

async function runFor(size: 'small' | 'default' | 'large'): Promise<Row[]> {
  const user = RUNNER[size]!;
  const bench = await startComposedApp({ tag: 'runs', size, env: { SPOTIFY_RATE_PER_30S: '100' } });
  const { app, sandbox } = bench;
  const rows: Row[] = [];
  try {
    const userId = await bench.connect(user, `${user}-${size}@bench.example`);
    const t0 = performance.now();
    while (performance.now() - t0 < MINUTES * 60_000) {
      await sleep(15_000);
      const candidates = await app.library.listMatchCandidates(userId);
      const known = await app.tempo.repo.getByKeys([...new Set(candidates.map((c) => c.recordingKey))]);
      log(
        `  ${size}/${user}: ${candidates.length} library tracks, ${[...known.values()].filter((k) => k.bpm !== null).length} tempos, ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
    }

    const w = sandbox.world;
    const truth = (trackId: string) => w.trackFacts(w.trackG(trackId)!).bpm;
    /** Writes to one playlist the simulated Spotify saw (the pace playlists' writer runs beside the builds). */
    const writesTo = (playlistId: string | null) =>
      playlistId === null
        ? 0
        : sandbox.admin
            .requests({ service: 'spotify-api', userId: user })
            .filter((r) => r.method !== 'GET' && r.url.split('?')[0]!.includes(`/playlists/${playlistId}`))
            .length;
    for (const preset of RUN_PRESETS) {
      const saved = await app.runs.service.create(userId, {
        name: RUN_PRESET_NAMES[preset],
        blocks: runPreset(preset, 165),
        half_time: true,
        no_explicit: false,
        liked_only: false,
      });
      let t = performance.now();
      const first = await app.runs.service.build(userId, saved.run_id);
      const buildMs = performance.now() - t;
      t = performance.now();
      const second = await app.runs.service.build(userId, saved.run_id);
      const rebuildMs = performance.now() - t;
      const playlistId = (await app.runs.repo.get(userId, saved.run_id))?.playlistId ?? null;
      const sandboxCalls = writesTo(playlistId);
      const [stored] = await app.runs.repo.builds(saved.run_id, 1);
      rows.push(
        score(
          size,
          preset,
          second,
          first,
          stored!.songs.map((s) => s.artistIds),
          truth,
          {
            buildMs,
            rebuildMs,
            sandboxCalls,
          },
        ),
      );
      const r = rows.at(-1)!;
      log(
        `  ${size} ${preset}: ${r.songs} songs, ${r.totalS} of ${r.plannedS} s, boundary p95 ${r.boundaryP95S} s, true fit ${r.trueFit}/${r.trueFitOf}, calls ${r.callsFirst}+${r.callsRebuild}, ${r.buildMs.toFixed(0)} ms`,
      );
    }
  } finally {
    await bench.close();
  }
  return rows;
}

function score(
  size: string,
  preset: string,
  run: Run,
  previous: Run,
  artists: string[][],
  truth: (trackId: string) => number,
  t: { buildMs: number; rebuildMs: number; sandboxCalls: number },
): Row {
  const b = run.build!;
  const segments = unfoldRun(run.blocks);
  const songs = b.songs;
  const misses = boundaryMisses(
    segments,
    songs.map((s) => ({ startS: s.start_s, durationMs: s.duration_ms })),
  );
  // A song fits when its true tempo (or its double or half, with half-time on) lies in its segment's
  // range, with no margin: the truth has no noise.
  const trueFit = songs.filter((s) =>
    runFit(spanOf(truth(s.track_id), true), segments[s.segment]!, run.half_time),
  ).length;
  const prev = new Set(previous.build!.songs.map((s) => s.recording_key));
  return {
    size,
    preset,
    plannedS: run.planned_s,
    songs: songs.length,
    totalS: b.total_s,
    boundaryP95S: Math.round(pct(misses, 95)),
    boundaryMaxS: Math.round(Math.max(0, ...misses)),
    trueFit,
    trueFitOf: songs.length,
    longestArtistRun: longestArtistRun(artists),
    closestSameArtist: closestSameArtist(artists),
    overlapWithPrevious: songs.length
      ? songs.filter((s) => prev.has(s.recording_key)).length / songs.length
      : 0,
    callsFirst: previous.build!.spotify.calls,
    callsRebuild: b.spotify.calls,
    sandboxCalls: t.sandboxCalls,
    buildMs: t.buildMs,
    rebuildMs: t.rebuildMs,
    poolNotes: run.pool_notes.length,
  };
}

function print(rows: Row[]) {
  const out: string[] = [];
  out.push(
    '| library | preset | songs | time vs plan | boundary p95 / max | true tempo fits | longest same-artist run | closest same artist | overlap with last build | calls first + rebuild (writes its playlist saw) | build / rebuild ms | pool notes |',
  );
  out.push('|---|---|---:|---|---|---:|---:|---:|---:|---|---|---:|');
  for (const r of rows)
    out.push(
      `| ${r.size} | ${r.preset} | ${r.songs} | ${Math.round(r.totalS / 60)} of ${Math.round(r.plannedS / 60)} min | ${Number.isNaN(r.boundaryP95S) ? '– (one part)' : `${r.boundaryP95S} s / ${r.boundaryMaxS} s`} | ${r.trueFit}/${r.trueFitOf} (${((100 * r.trueFit) / Math.max(1, r.trueFitOf)).toFixed(1)} %) | ${r.longestArtistRun} | ${Number.isFinite(r.closestSameArtist) ? r.closestSameArtist : '–'} | ${(100 * r.overlapWithPrevious).toFixed(0)} % | ${r.callsFirst} + ${r.callsRebuild} (${r.sandboxCalls}) | ${r.buildMs.toFixed(0)} / ${r.rebuildMs.toFixed(0)} | ${r.poolNotes} |`,
    );
  const all = rows.flatMap((r) => r);
  const fit =
    all.reduce((n, r) => n + r.trueFit, 0) /
    Math.max(
      1,
      all.reduce((n, r) => n + r.trueFitOf, 0),
    );
  out.push('');
  out.push(
    `All builds: true tempo fits ${(100 * fit).toFixed(1)} % of songs (target ≥ 98 %); boundary p95 over runs ${pct(
      all.map((r) => r.boundaryP95S).filter((x) => !Number.isNaN(x)),
      95,
    )} s; most calls per build ${Math.max(...all.flatMap((r) => [r.callsFirst, r.callsRebuild]))} (target ≤ 3 for ≤ 100 songs); slowest build ${Math.max(...all.flatMap((r) => [r.buildMs, r.rebuildMs])).toFixed(0)} ms.`,
  );
  return out.join('\n');
}

const rows: Row[] = [];
for (const size of SIZES) {
  log(`${size}: connecting ${RUNNER[size]} and letting the pipeline run ${MINUTES} min`);
  rows.push(...(await runFor(size)));
}
const table = print(rows);
process.stdout.write(`${table}\n`);
if (JSON_OUT) await fs.writeFile(JSON_OUT, JSON.stringify({ minutes: MINUTES, rows }, null, 2));
process.exit(0);
