// The status reads as the serve processes timed them (their request logs' `ms`, all serve processes
// together), beside what the runners' client saw: on 2 shared cores the client's own event loop and the
// scheduler add to every read, and this tells the server's part from theirs.
import fs from 'node:fs';
import path from 'node:path';
import { percentile } from './stats.ts';

const ROUTES: Record<string, string> = {
  'GET /api/whoami': 'whoami',
  'GET /api/spotify/targets': 'targets',
  'GET /api/spotify/sources': 'sources',
};

export type ServerTimes = Record<string, { n: number; p50?: number; p99?: number; max?: number }>;

/** Status reads (targets and sources) answered in one minute of the run, as the serve processes timed them. */
export type ServerMinute = { minute: number; n: number; p99?: number };

/** The request lines of every serve process's log (`serve.log`, or `serve-1.log`, `serve-2.log`, … behind nginx). */
function requestLines(logDir: string): { time: number; route: string; ms: number }[] {
  let files: string[];
  try {
    files = fs.readdirSync(logDir).filter((f) => /^serve(-\d+)?\.log$/.test(f));
  } catch {
    return [];
  }
  const out: { time: number; route: string; ms: number }[] = [];
  for (const f of files) {
    for (const line of fs.readFileSync(path.join(logDir, f), 'utf8').split('\n')) {
      if (!line.includes('"msg":"request"')) continue;
      try {
        const r = JSON.parse(line) as {
          time: number;
          method: string;
          url: string;
          ms: number;
          status: number;
        };
        const route = ROUTES[`${r.method} ${r.url.split('?')[0]}`];
        if (route && r.status === 200) out.push({ time: r.time, route, ms: r.ms });
      } catch {
        // a line cut short
      }
    }
  }
  return out;
}

export function serverTimes(logDir: string): ServerTimes {
  const ms: Record<string, number[]> = { whoami: [], targets: [], sources: [] };
  for (const r of requestLines(logDir)) ms[r.route]!.push(r.ms);
  if (Object.values(ms).every((v) => v.length === 0)) return {};
  return Object.fromEntries(
    Object.entries(ms).map(([k, v]) => [
      k,
      { n: v.length, p50: percentile(v, 50), p99: percentile(v, 99), max: percentile(v, 100) },
    ]),
  );
}

/** The status reads' p99 in serve, minute by minute from `startMs` (the run's start; default its first read). */
export function serverMinutes(logDir: string, startMs?: number): ServerMinute[] {
  const reads = requestLines(logDir).filter((r) => r.route !== 'whoami');
  const from = startMs ?? reads.reduce((m, r) => Math.min(m, r.time), Infinity);
  const byMinute = new Map<number, number[]>();
  for (const r of reads) {
    if (r.time < from) continue;
    const m = Math.floor((r.time - from) / 60_000);
    const list = byMinute.get(m);
    if (list) list.push(r.ms);
    else byMinute.set(m, [r.ms]);
  }
  return [...byMinute.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([minute, v]) => ({ minute, n: v.length, p99: percentile(v, 99) }));
}
