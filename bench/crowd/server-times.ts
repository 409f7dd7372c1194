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

export function serverTimes(logDir: string): ServerTimes {
  const ms: Record<string, number[]> = { whoami: [], targets: [], sources: [] };
  let text: string;
  try {
    text = fs
      .readdirSync(logDir)
      .filter((f) => /^serve(-\d+)?\.log$/.test(f))
      .map((f) => fs.readFileSync(path.join(logDir, f), 'utf8'))
      .join('\n');
  } catch {
    return {};
  }
  if (!text) return {};
  for (const line of text.split('\n')) {
    if (!line.includes('"msg":"request"')) continue;
    try {
      const r = JSON.parse(line) as { method: string; url: string; ms: number; status: number };
      const route = ROUTES[`${r.method} ${r.url.split('?')[0]}`];
      if (route && r.status === 200) ms[route]!.push(r.ms);
    } catch {
      // a line cut short
    }
  }
  return Object.fromEntries(
    Object.entries(ms).map(([k, v]) => [
      k,
      { n: v.length, p50: percentile(v, 50), p99: percentile(v, 99), max: percentile(v, 100) },
    ]),
  );
}
