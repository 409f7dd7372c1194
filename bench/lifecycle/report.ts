// The benchmark's tables: a row per day, and a row per runner and day. Also `--reprint FILE`'s, from the
// rows a run wrote with `--json`.
import { RECALL_CLASSES } from '../shared/recall.ts';
import type { PlacementCounts, RunnerScore } from './score.ts';

export interface DayRow extends PlacementCounts {
  day: number;
  ended: string;
  calls: number;
  quotaUsed: number;
  refused429: number;
  playlistCalls: number;
  placedToday: number;
  fittingScanned: number;
  placedScanned: number;
  /** Fitting scanned songs whose tempo lookup is done, those placed, and the rest by class (absent in older rows). */
  lookedUpFitting?: number;
  placedLookedUp?: number;
  recallClasses?: Record<string, number>;
  libraryFitting: number;
  libraryPlaced: number;
  withoutTempo: number;
  lookupJobs: number;
  runners: RunnerScore[];
}
export const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : '-');
export function table(head: string[], body: string[][]): string {
  const width = head.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    `| ${r.map((v, i) => (i === 0 ? v.padEnd(width[i]!) : v.padStart(width[i]!))).join(' | ')} |`;
  return [
    line(head),
    `|${width.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|')}|`,
    ...body.map(line),
  ].join('\n');
}
export function dayTable(rows: DayRow[]): string {
  return table(
    [
      'day',
      'Spotify calls',
      'quota used',
      '429',
      'playlist calls',
      'placed',
      'placed today',
      'placed/call',
      'duplicates (id/ISRC/song)',
      're-adds',
      'precision',
      '3:2',
      'recall scanned',
      'recall library',
      'status ≠ held',
      'no tempo yet',
      'artist run (best), ≥ 10 artists',
      'first 20: artists (best)',
      'day ended',
    ],
    rows.map((r) => [
      String(r.day),
      String(r.calls),
      `${r.quotaUsed}/1000`,
      String(r.refused429),
      String(r.playlistCalls),
      String(r.placed),
      String(r.placedToday),
      r.calls ? (r.placedToday / r.calls).toFixed(2) : '-',
      `${r.duplicates} (${r.sameId}/${r.sameRecording}/${r.sameSong})`,
      String(r.readds),
      pct(r.right, r.placed),
      String(r.threeTwo),
      pct(r.placedScanned, r.fittingScanned),
      pct(r.libraryPlaced, r.libraryFitting),
      String(r.runners.reduce((n, s) => n + statusDiff(s), 0)),
      String(r.withoutTempo),
      spreadCell(r.runners),
      first20Cell(r.runners),
      r.ended,
    ]),
  );
}
export function runnerTable(rows: DayRow[]): string {
  const body: string[][] = [];
  for (const r of rows)
    for (const s of r.runners)
      body.push([
        `${r.day} ${s.runner}`,
        s.disabled ? 'lost' : s.connected ? 'yes' : 'no',
        `${s.liveTargets}/${s.followedPacebeat}/${s.playlists.length}`,
        String(s.placed),
        `${s.duplicates} (${s.sameId}/${s.sameRecording}/${s.sameSong})`,
        String(s.readds),
        pct(s.right, s.placed),
        String(s.threeTwo),
        `${pct(s.placedScanned, s.fittingScanned)} (${s.placedScanned}/${s.fittingScanned} of ${s.scannedSongs})`,
        pct(s.libraryPlaced, s.libraryFitting),
        s.playlists
          .filter((p) => p.target && p.statusAdded !== null && p.statusAdded !== p.placed)
          .map((p) => `${p.min}-${p.max}: ${p.statusAdded} vs ${p.placed}`)
          .join(', ') || '=',
        s.calls === undefined ? '-' : String(s.calls),
        s.playlists
          .filter((p) => p.target && p.artistRun !== undefined)
          .map(
            (p) =>
              `${p.min}-${p.max}: ${p.artistRun} (${p.bestArtistRun}), ${p.first20Artists} (${p.bestFirst20Artists})`,
          )
          .join(', ') || '-',
      ]);
  return table(
    [
      'day runner',
      'connected',
      'targets/followed/all Pacebeat playlists',
      'placed',
      'duplicates (id/ISRC/song)',
      're-adds',
      'precision',
      '3:2',
      'recall scanned (songs)',
      'recall library',
      'status vs held',
      'calls',
      'artist run (best), first 20: artists (best)',
    ],
    body,
  );
}

/**
 * The status page's "tracks added" against what Pacebeat's entries in the playlist are, per live target,
 * summed as absolute differences (computed here, so a reprint of an older run's rows uses this definition).
 */
export function statusDiff(s: RunnerScore): number {
  return s.playlists
    .filter((p) => p.target && p.statusAdded !== null)
    .reduce((n, p) => n + Math.abs(p.statusAdded! - p.placed), 0);
}

/** The live playlists' spread (rows of older runs have none): `undefined` measures are left out. */
const spreadPlaylists = (runners: RunnerScore[]) =>
  runners.flatMap((s) => s.playlists.filter((p) => p.target && p.artistRun !== undefined));

/**
 * The longest same-artist run over the day's live playlists of at least 10 artists (where the aim,
 * at most 2, applies), with the shortest that playlist's songs allow.
 */
function spreadCell(runners: RunnerScore[]): string {
  const lists = spreadPlaylists(runners).filter((p) => (p.artists ?? 0) >= 10);
  if (lists.length === 0) return '-';
  const worst = lists.reduce((a, b) => (b.artistRun! > a.artistRun! ? b : a));
  return `${worst.artistRun} (${worst.bestArtistRun})`;
}

/** The live playlist whose first 20 songs fall furthest short of the artists its songs allow: artists (best). */
function first20Cell(runners: RunnerScore[]): string {
  const lists = spreadPlaylists(runners);
  if (lists.length === 0) return '-';
  const worst = lists.reduce((a, b) =>
    b.bestFirst20Artists! - b.first20Artists! > a.bestFirst20Artists! - a.first20Artists! ? b : a,
  );
  return `${worst.first20Artists} (${worst.bestFirst20Artists})`;
}

/** The runners' recall classes summed (undefined when no runner has them: an older run's rows). */
export function sumClasses(runners: RunnerScore[]): Record<string, number> | undefined {
  if (!runners.some((s) => s.recallClasses)) return undefined;
  const out: Record<string, number> = {};
  for (const s of runners)
    for (const [c, n] of Object.entries(s.recallClasses ?? {})) out[c] = (out[c] ?? 0) + n;
  return out;
}

/**
 * Per day, recall over the fitting scanned songs whose tempo lookup is done, and why the rest were not
 * placed, by class (`bench/shared/recall.ts`, the classes bench:playlist-truth prints), summed over runners.
 */
export function recallTable(rows: DayRow[]): string {
  const days = rows.filter((r) => r.recallClasses);
  if (days.length === 0) return 'Recall classes: not in these rows (an older run).';
  const cell = (r: DayRow, n: number) => `${n} (${pct(n, r.lookedUpFitting ?? 0)})`;
  const body: string[][] = [
    [
      'recall over the looked-up fitting songs',
      ...days.map(
        (r) =>
          `${pct(r.placedLookedUp ?? 0, r.lookedUpFitting ?? 0)} (${r.placedLookedUp}/${r.lookedUpFitting})`,
      ),
    ],
  ];
  for (const c of RECALL_CLASSES)
    if (days.some((r) => (r.recallClasses?.[c] ?? 0) > 0))
      body.push([c, ...days.map((r) => cell(r, r.recallClasses?.[c] ?? 0))]);
  return table(
    ['not placed, by class (share of the looked-up fitting songs)', ...days.map((r) => `day ${r.day}`)],
    body,
  );
}
