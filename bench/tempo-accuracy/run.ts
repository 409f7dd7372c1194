// Tempo accuracy benchmark: Pacebeat's estimator against the JavaScript anchors on a synthesised,
// MP3-round-tripped corpus with known tempo. Not a test: it prints a table.
//
//   node bench/tempo-accuracy/run.ts [--quick] [--seed N] [--jobs N] [--only pacebeat,music-tempo]
//                                    [--reuse-anchors] [--failures]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheDir, corpusSpec, ensureCorpus, quickSubset, type ClipSpec } from './corpus.ts';
import { ESTIMATORS } from './estimators.ts';
import type { EvalResult } from './eval.worker.ts';
import { accRun, foldedError, summarise, type Row } from './metrics.ts';
import { runPool } from './pool.ts';
import { meterOfPattern } from '@pacebeat/sandbox';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = flag('--quick');
// Seed 0 is the main corpus; any other seed is a held-out corpus drawn with the same recipe.
const seed = Number(option('--seed') ?? 0);
if (!Number.isSafeInteger(seed) || seed < 0)
  throw new Error(`--seed wants a whole number ≥ 0, got ${option('--seed')}`);
const jobs = Number(option('--jobs') ?? Math.min(2, os.availableParallelism()));
const only = option('--only')?.split(',');
const names = Object.keys(ESTIMATORS).filter((n) => !only || only.includes(n));
const log = (s: string) => process.stderr.write(`${s}\n`);

const all = corpusSpec(seed);
const clips = quick ? quickSubset(all) : all;
const paths = await ensureCorpus(clips, jobs, log, seed);

// With --reuse-anchors, anchors' answers come from the last full run on the same corpus (to iterate
// on Pacebeat's estimator without re-running the slow anchors); the table says so.
const lastFile = path.join(cacheDir(seed), 'last-results.json');
type Stored = Record<string, EvalResult['results']>;
const reused: Stored =
  flag('--reuse-anchors') && fs.existsSync(lastFile) ? JSON.parse(fs.readFileSync(lastFile, 'utf8')) : {};
const toRun = (c: ClipSpec) => names.filter((n) => n === 'pacebeat' || !reused[c.id]?.[n]);

log(`estimating ${clips.length} clips with ${names.join(', ')} on ${jobs} threads…`);
let done = 0;
const started = performance.now();
const evals = await runPool<{ file: string; estimators: string[] }, EvalResult>(
  new URL('./eval.worker.ts', import.meta.url),
  clips.map((c) => ({ file: paths.get(c.id) as string, estimators: toRun(c) })),
  jobs,
  () => {
    done++;
    if (done % 20 === 0 || done === clips.length)
      log(`  ${done}/${clips.length} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  },
);
const results: Stored = {};
clips.forEach((c, i) => {
  results[c.id] = { ...(reused[c.id] ?? {}), ...(evals[i] as EvalResult).results };
});
const stored: Stored = fs.existsSync(lastFile) ? JSON.parse(fs.readFileSync(lastFile, 'utf8')) : {};
fs.writeFileSync(lastFile, JSON.stringify({ ...stored, ...results }));

// ---- table ----
const pct = (x: number) => (Number.isNaN(x) ? '—' : `${(100 * x).toFixed(1)}`);
const header = [
  'pattern',
  'estimator',
  'n',
  'Acc1 %',
  'Acc2 %',
  'Acc-run %',
  'median err %',
  'no answer %',
  's / clip',
];
const lines: string[][] = [];
const groups = [...new Set(clips.map((c) => c.pattern)), 'overall'];
for (const g of groups) {
  const members = clips.filter((c) => g === 'overall' || c.pattern === g);
  for (const name of names) {
    const items = members.map((c) => ({
      truth: c.bpm,
      bpm: results[c.id]?.[name]?.bpm ?? null,
      ms: results[c.id]?.[name]?.ms ?? 0,
    }));
    const r: Row = summarise(items);
    const tag = name !== 'pacebeat' && members.some((c) => reused[c.id]?.[name]) ? ' (reused)' : '';
    lines.push([
      g,
      name + tag,
      String(r.n),
      pct(r.acc1),
      pct(r.acc2),
      pct(r.accRun),
      pct(r.medianErr),
      pct(r.noAnswer),
      (r.msPerClip / 1000).toFixed(3),
    ]);
  }
}
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] as string).length)));
const fmt = (cells: string[]) =>
  `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join(' | ')} |`;
console.log(fmt(header));
console.log(`|${widths.map((w, i) => (i < 2 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
for (const l of lines) console.log(fmt(l));

// ---- meter: what Pacebeat's estimator heard, as the resolver weighs it (tempo/meter.ts): a clear answer
// (strength ≥ 0.5), a weak one (0.3-0.5, weaker evidence), and under 0.3 nothing ----
if (names.includes('pacebeat')) {
  const CLEAR = 0.5;
  const WEAK = 0.3;
  const heardAs = ['4/4', '3/4', '6/8', '5/4', '7/8'];
  const groups: Array<[string, (m: string) => boolean]> = [
    ['4/4', (m) => m === '4/4'],
    ['3/4', (m) => m === '3/4'],
    ['6/8', (m) => m === '6/8'],
    ['odd (5/4, 7/8)', (m) => m === '5/4' || m === '7/8'],
    ['5/4', (m) => m === '5/4'],
    ['7/8', (m) => m === '7/8'],
  ];
  const table = (title: string, from: number, to: number, withRight: boolean) => {
    const mheader = [
      'true meter',
      'n',
      ...(withRight ? ['right %'] : []),
      ...heardAs.map((m) => `heard ${m} %`),
      withRight ? 'unclear %' : 'not weak %',
    ];
    const mlines: string[][] = [];
    let rightAll = 0;
    for (const [label, isOf] of groups) {
      const members = clips.filter((c) => isOf(meterOfPattern(c.pattern)));
      if (members.length === 0) continue;
      const heard = members.map((c) => {
        const r = results[c.id]?.pacebeat;
        const strength = r?.meterStrength ?? 0;
        return r?.meter && strength >= from && strength < to ? r.meter : null;
      });
      // Right: the true meter (a 6/8 heard in 6/8: duple bars, the beat divided in three).
      const right = members.filter((c, i) => heard[i] === meterOfPattern(c.pattern)).length;
      if (label === '4/4' || label === '3/4' || label === '6/8' || label.startsWith('odd')) rightAll += right;
      const share = (x: number) => pct(x / members.length);
      mlines.push([
        label,
        String(members.length),
        ...(withRight ? [share(right)] : []),
        ...heardAs.map((m) => share(heard.filter((h) => h === m).length)),
        share(heard.filter((h) => h === null).length),
      ]);
    }
    const mw = mheader.map((h, i) => Math.max(h.length, ...mlines.map((l) => (l[i] as string).length)));
    const mfmt = (cells: string[]) =>
      `| ${cells.map((c, i) => (i < 1 ? c.padEnd(mw[i] as number) : c.padStart(mw[i] as number))).join(' | ')} |`;
    console.log(`\n${title}:`);
    console.log(mfmt(mheader));
    console.log(`|${mw.map((w, i) => (i < 1 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
    for (const l of mlines) console.log(mfmt(l));
    if (withRight) console.log(`overall: ${pct(rightAll / Math.max(1, clips.length))} % right`);
  };
  table(`Meter heard by Pacebeat's estimator (a clear answer, strength ≥ ${CLEAR})`, CLEAR, Infinity, true);
  table(
    `Its weak answers (${WEAK} ≤ strength < ${CLEAR}; the resolver weighs them as weaker evidence, tempo/meter.ts)`,
    WEAK,
    CLEAR,
    false,
  );
}

const decodeMs = evals.reduce((s, e) => s + e.decodeMs, 0) / Math.max(1, evals.length);
console.log(
  `\nclips: ${clips.length}${quick ? ' (quick subset)' : ''} of ${seed === 0 ? 'the main corpus' : `held-out corpus --seed ${seed}`}; 30 s each; MP3 decode (mpg123-decoder) ${(decodeMs / 1000).toFixed(3)} s / clip, not included above`,
);
for (const name of names) {
  const msAll = clips.map((c) => results[c.id]?.[name]?.ms ?? 0);
  const mean = msAll.reduce((a, b) => a + b, 0) / Math.max(1, msAll.length);
  console.log(
    `${name}: ${(mean / 1000).toFixed(3)} s / clip = ${(30000 / mean).toFixed(0)}× real time on one core`,
  );
}
const errors = clips
  .flatMap((c) => names.map((n) => [c.id, n, results[c.id]?.[n]?.error] as const))
  .filter((e) => e[2]);
if (errors.length > 0) console.log(`\nerrors (${errors.length}), first: ${errors[0]?.join(': ')}`);

if (flag('--failures')) {
  console.log('\nPacebeat misses (Acc-run):');
  for (const c of clips) {
    const bpm = results[c.id]?.pacebeat?.bpm ?? null;
    if (!accRun(bpm, c.bpm)) {
      const ratio = bpm === null ? '—' : (bpm / c.bpm).toFixed(3);
      console.log(
        `  ${c.id} truth ${c.bpm} got ${bpm} (×${ratio}) err ${bpm === null ? '—' : pct(foldedError(bpm, c.bpm))} h${c.humanizeMs} d${c.driftPct} n${c.noise} r${c.reverb} seed ${c.seed}`,
      );
    }
  }
}
