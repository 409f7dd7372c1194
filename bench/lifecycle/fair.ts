// Fair-share figures of a run (kept in its `--json` as `fair`): each runner's time from their first connect
// to their first playlist link, Pacebeat entries placed per day, the Spotify calls of the installation and
// of each runner (the simulated Spotify's request log and the product's own ledger), and the looper's
// requests by status. `fairCompare` prints a run without the looper beside one with it.
import type { LooperCounts } from './looper.ts';
import { table } from './report.ts';

export interface FairRecord {
  looper: string | null;
  looperOptions: { reconnectEveryS: number; parallel: number; hoursPerDay?: number } | null;
  dayMinutes: number;
  /** Seconds from the first connect to the first target with a playlist link (nights left out), per runner. */
  firstLink: Record<string, { day: number; seconds: number | null; foundDay: number | null }>;
  /** Pacebeat entries in the runner's Pacebeat playlists at each day's end (cumulative). */
  placed: Record<string, number[]>;
  /** Web API calls of each day made with the runner's token (the sandbox's request log). */
  sandboxCalls: Record<string, number[]>;
  /** Whose playlist add was in flight when the server was SIGKILLed (day 2): their writer waits out its lease. */
  killedAdd?: Array<{ day: number; runner: string }>;
  installationCalls: number[];
  quotaUsed: number[];
  refused429: number[];
  /** The product's spotify_call_ledger, per day: calls by runner and by priority. */
  ledger: Array<Record<string, { calls: number; byPriority: Record<string, number> }>>;
  looperByDay: LooperCounts[];
  looperTotal: LooperCounts;
}

const perDay = (cum: number[]) => cum.map((v, i) => v - (cum[i - 1] ?? 0));
/** Placed per day, a day marked * when the runner's add was the one in flight at the SIGKILL. */
const placedLine = (f: FairRecord, id: string, days?: number) =>
  perDay((f.placed[id] ?? []).slice(0, days))
    .map((v, d) => `${v}${(f.killedAdd ?? []).some((k) => k.day === d + 1 && k.runner === id) ? '*' : ''}`)
    .join(' / ');
const statusLine = (c: LooperCounts | undefined) =>
  c
    ? Object.entries(c.byStatus)
        .sort()
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ') || 'none'
    : '-';
const firstS = (f: FairRecord, id: string) => {
  const e = f.firstLink[id];
  if (!e) return 'not connected';
  if (e.seconds === null) return `none (connected day ${e.day})`;
  return `${e.seconds}${e.foundDay !== e.day ? ` (day ${e.day}→${e.foundDay})` : ''}`;
};
const ledgerOf = (f: FairRecord, day: number, who: string) => f.ledger[day]?.[who];
const prio = (e: { byPriority: Record<string, number> } | undefined) =>
  e
    ? Object.entries(e.byPriority)
        .sort()
        .map(([k, v]) => `p${k} ${v}`)
        .join(' ')
    : '-';

/** One run's figures. */
export function fairSummary(f: FairRecord): string {
  const runners = Object.keys(f.placed);
  const days = f.installationCalls.length;
  const out = [
    `Fair share (issue 24)${f.looper ? `: looper ${f.looper} (reconnect every ${f.looperOptions?.reconnectEveryS} s, ${f.looperOptions?.parallel} in parallel, action limits of ${f.looperOptions?.hoursPerDay ?? 1} h a day)` : ': no looper'}`,
    '',
    table(
      [
        'runner',
        'first playlist s',
        'placed per day',
        'Spotify calls per day (log)',
        'ledger per day (by priority)',
      ],
      runners.map((id) => [
        `${id}${id === f.looper ? ' (looper)' : ''}`,
        firstS(f, id),
        placedLine(f, id),
        (f.sandboxCalls[id] ?? []).join(' / '),
        Array.from(
          { length: days },
          (_, d) => `${ledgerOf(f, d, id)?.calls ?? 0} (${prio(ledgerOf(f, d, id))})`,
        ).join(' / '),
      ]),
    ),
    '',
    `Installation: Spotify calls per day ${f.installationCalls.join(' / ')}; quota used ${f.quotaUsed.join(' / ')}; 429 ${f.refused429.join(' / ')}`,
  ];
  if (f.looper) {
    out.push(
      `Looper ${f.looper}: ${f.looperTotal.requests} requests, ${f.looperTotal.reconnects} reconnects; by status ${statusLine(f.looperTotal)}`,
      ...f.looperByDay.map((c, d) => `  day ${d + 1}: ${c?.requests ?? 0} requests (${statusLine(c)})`),
      '  by route:',
      ...Object.entries(f.looperTotal.byRoute)
        .sort()
        .map(
          ([r, m]) =>
            `  - ${r}: ${Object.entries(m)
              .sort()
              .map(([k, v]) => `${k}: ${v}`)
              .join(', ')}`,
        ),
    );
  }
  return out.join('\n');
}

/** A run without the looper (a) beside one with it (b). */
export function fairCompare(a: FairRecord, b: FairRecord): string {
  const looper = b.looper ?? '';
  const runners = Object.keys(a.placed);
  const days = Math.min(a.installationCalls.length, b.installationCalls.length);
  const cut = (xs: number[]) => xs.slice(0, days);
  const rows = runners.map((id) => [
    `${id}${id === looper ? ' (the looper)' : ''}`,
    firstS(a, id),
    firstS(b, id),
    placedLine(a, id, days),
    placedLine(b, id, days),
    cut(a.sandboxCalls[id] ?? []).join(' / '),
    cut(b.sandboxCalls[id] ?? []).join(' / '),
  ]);
  rows.push([
    'installation',
    '',
    '',
    perDay(
      cut(runners.reduce((s, id) => s.map((v, i) => v + (a.placed[id]?.[i] ?? 0)), Array(days).fill(0))),
    ).join(' / '),
    perDay(
      cut(runners.reduce((s, id) => s.map((v, i) => v + (b.placed[id]?.[i] ?? 0)), Array(days).fill(0))),
    ).join(' / '),
    cut(a.installationCalls).join(' / '),
    cut(b.installationCalls).join(' / '),
  ]);
  return [
    `Without the looper / with ${looper} looping (days 1${days > 1 ? `-${days}` : ''}; per-day figures d1 / d2 / ...; * the runner whose playlist add was in flight at the day's SIGKILL: their writer waits out its 300 s lease)`,
    '',
    table(
      [
        'runner',
        'first playlist s (without)',
        'first playlist s (with)',
        'placed per day (without)',
        'placed per day (with)',
        'Spotify calls per day (without)',
        'Spotify calls per day (with)',
      ],
      rows,
    ),
    '',
    `Ledger (spotify_call_ledger) per day and priority, with the looper: ${runners
      .map((id) => `${id} ${Array.from({ length: days }, (_, d) => prio(ledgerOf(b, d, id))).join(' | ')}`)
      .join('; ')}`,
    `Quota used per day: without ${cut(a.quotaUsed).join(' / ')}, with ${cut(b.quotaUsed).join(' / ')}; 429 from Spotify: without ${cut(a.refused429).join(' / ')}, with ${cut(b.refused429).join(' / ')}`,
    `Looper's requests: ${b.looperTotal.requests} (${statusLine(b.looperTotal)}), ${b.looperTotal.reconnects} reconnects`,
  ].join('\n');
}
