import { startSandbox } from '@pacebeat/sandbox';
import { createEstimatorPool } from '@pacebeat/server/src/tempo/estimator/index.ts';
const sb = await startSandbox({ size: 'small', seed: 33, deezer: { rateLimit: false, wrongVersionShare: 0 } });
const pool = createEstimatorPool();
const N = Number(process.argv[2] ?? 60);
const rows: string[] = [];
let t = 0, n = 0;
const errs: number[] = [];
for (let g = 7; n < N && g < sb.world.catalog.trackTotal; g += 97) {
  const tr = sb.world.catalog.track(g);
  const d = await (await fetch(`${sb.baseUrls.deezer}/track/isrc:${tr.isrc}`)).json() as any;
  if (d.error || !d.preview) continue;
  const bytes = new Uint8Array(await (await fetch(d.preview)).arrayBuffer());
  const t0 = performance.now();
  const e = await pool.estimateFromMp3(bytes);
  t += performance.now() - t0; n++;
  const truth = sb.world.catalog.tempoOf(g);
  if (e.bpm === null) { rows.push(`${truth.pattern} ${truth.bpm} -> null`); continue; }
  let best = 9;
  for (const f of [1, 2, 0.5, 1.5, 2/3, 3, 1/3]) { const r = Math.log(e.bpm / (truth.bpm * f)); if (Math.abs(r) < Math.abs(best)) best = r; }
  errs.push(best);
  rows.push(`${truth.pattern} ${truth.bpm} -> ${e.bpm} (conf ${e.confidence.toFixed(2)}) err ${(100*best).toFixed(3)} %`);
}
console.log(rows.join('\n'));
const abs = errs.map(Math.abs).sort((a,b)=>a-b);
const q = (p: number) => (100*abs[Math.floor(p*(abs.length-1))]!).toFixed(3);
console.log(`n ${n}, ${(t/n).toFixed(0)} ms each; |err| median ${q(0.5)} %, p90 ${q(0.9)} %, p95 ${q(0.95)} %, max ${q(1)} %`);
await pool.close(); await sb.close();
