// The benchmark's table: the sandbox's scoring of the target playlists, and what the ground truth says
// about every wrongly placed track and about other confidence thresholds.
import type { Sandbox } from '@pacebeat/sandbox';
import type { MatchCandidate } from '@pacebeat/server/src/library/library.repository.ts';
import { EDGE_MARGIN, fitsRange, MIN_CONFIDENCE, planAdds } from '@pacebeat/server/src/playlists/matching.ts';
import type { SongSet } from '@pacebeat/server/src/playlists/song-identity.ts';
import {
  artistsOf,
  SPREAD_WINDOW,
  spreadArtists,
  spreadMeasures,
} from '@pacebeat/server/src/playlists/spread.ts';
import type {
  PlacedInOrder,
  TargetRow,
  TargetTrackRow,
} from '@pacebeat/server/src/playlists/playlists.repository.ts';
import type { CachedTempo } from '@pacebeat/server/src/tempo/tempo.repository.ts';
import { lookupLines, type LookupFacts } from './lookups.ts';
import { leftOutByDesign, recallClass, recallLines, recallSamples } from '../shared/recall.ts';
import { meterOfPattern } from '@pacebeat/sandbox';
import { bySourceAndConfidence, sweep, SWEEP, tempoError } from './truth.ts';

export interface RunFacts {
  user: string;
  sandbox: Sandbox;
  userId: string;
  seconds: number;
  scan: 'reading' | 'done' | 'quota';
  candidates: MatchCandidate[];
  first50: { seconds: number; calls: number; writerCalls: number } | null;
  removed: string[];
  ledger: Array<{ endpoint: string; purpose: string; calls: number; failures: number }>;
  targets: TargetRow[];
  rows: TargetTrackRow[][];
  tempos: Map<string, CachedTempo>;
  /** What the writer sees at the end: each target's songs (any state), and its placed songs in order. */
  writer: { placed: Map<string, SongSet>; inOrder: Map<string, PlacedInOrder[]> };
  lookups: LookupFacts;
  /** When the watching ended (Date.now()), and the writer's longest wait for company before an add. */
  endedAt: number;
  addWaitMs: number;
  /** Songs of each recall class shown with their tempo cache row. */
  samples: number;
}

const DAILY_QUOTA = 1000;

/**
 * The writer's plan at the end (matching.ts planAdds, the runner's removals in `placed`) put through the
 * artist spread as a steady-state sync would (spread.ts; nothing overdue within a day): which fitting songs
 * it holds for other artists' company, and which would go in the next add.
 */
function spreadSplit(f: RunFacts): { held: Set<string>; ready: Set<string>; byArtist: string[] } {
  const open = f.targets.filter((t) => t.state === 'pending' || t.state === 'active');
  const plan = planAdds(open, f.candidates, f.tempos, f.writer.placed);
  const held = new Set<string>();
  const ready = new Set<string>();
  // Whose songs the spread holds: per target and main artist, the songs held against the artist's songs
  // in the target's pool (placed and ready), and the window that share allows (an artist of c songs among
  // n can be kept (n − c) / (c − 1) songs apart at best).
  const heldBy: Array<{ target: string; artist: string; held: number; songs: number; pool: number }> = [];
  for (const t of open) {
    const songs = (f.writer.inOrder.get(t.id) ?? []).map((x) => x.artistIds);
    const ready0 = plan.get(t.id) ?? [];
    const s = spreadArtists({
      ready: ready0,
      tail: songs.slice(-SPREAD_WINDOW),
      placedArtists: songs.flat(),
      window: SPREAD_WINDOW,
    });
    for (const x of s.held) held.add(x.trackId);
    for (const x of s.order) ready.add(x.trackId);
    const count = new Map<string, number>();
    for (const a of [...songs, ...ready0.map(artistsOf)])
      for (const x of new Set(a)) count.set(x, (count.get(x) ?? 0) + 1);
    const heldCount = new Map<string, number>();
    for (const x of s.held) {
      const a = artistsOf(x)[0]!;
      heldCount.set(a, (heldCount.get(a) ?? 0) + 1);
    }
    for (const [artist, h] of heldCount)
      heldBy.push({
        target: t.id,
        artist,
        held: h,
        songs: count.get(artist) ?? 0,
        pool: songs.length + ready0.length,
      });
  }
  const allows = (x: (typeof heldBy)[number]) =>
    x.songs <= 1 ? Infinity : Math.floor((x.pool - x.songs) / (x.songs - 1));
  heldBy.sort((a, b) => b.held - a.held);
  const crowded = heldBy.filter((x) => allows(x) < SPREAD_WINDOW);
  const name = (id: string) => f.targets.find((t) => t.id === id);
  const byArtist =
    heldBy.length === 0
      ? []
      : [
          `Held by the spread, by main artist: ${heldBy.length} artist-playlist pairs; ${crowded.reduce((n, x) => n + x.held, 0)} of the held songs are by artists whose share of their playlist's pool allows a window under ${SPREAD_WINDOW} (they cannot all go ${SPREAD_WINDOW} apart whatever comes); the most held:`,
          ...heldBy.slice(0, 8).map((x) => {
            const t = name(x.target);
            return `  ${x.artist} in ${t ? `${t.minBpm}–${t.maxBpm}` : x.target}: ${x.held} held of ${x.songs} songs in a pool of ${x.pool} (${((100 * x.songs) / Math.max(1, x.pool)).toFixed(1)} %; the share allows a window of ${Number.isFinite(allows(x)) ? allows(x) : '-'})`;
          }),
        ];
  return { held, ready, byArtist };
}
const pct = (x: number | null) => (x === null ? '-' : `${(100 * x).toFixed(1)} %`);

export function report(f: RunFacts): string {
  const w = f.sandbox.world;
  const cat = w.catalog;
  const recordingOf = (id: string) => cat.recordingOf(w.trackG(id)!);
  const made = f.targets.filter((t) => t.playlistId !== null);
  const score = f.sandbox.admin.score({
    userId: f.user,
    targets: made.map((t) => ({ playlistId: t.playlistId!, minBpm: t.minBpm, maxBpm: t.maxBpm })),
    sampleSize: 200, // every source: the whole library the scan will have read when it is done
  });
  // The same with 1 % of slack at the range edges, below what a runner can hear (about 4 %).
  const lenient = f.sandbox.admin.score({
    userId: f.user,
    targets: made.map((t) => ({ playlistId: t.playlistId!, minBpm: t.minBpm, maxBpm: t.maxBpm })),
    tolerance: 0.01,
  });
  const lenientFitting = lenient.targets.reduce((n, s) => n + s.placedFitting, 0);
  let placed = 0;
  let fitting = 0;
  let libraryFitting = 0;
  let missing = 0;
  let duplicates = 0;
  const finalRecordings = new Set<number>();
  // Songs as a runner hears them (Catalog.heardSongOf): a single's version, a remaster, a compilation copy
  // are their original's song, and the writer places one track of each (a second is a duplicate).
  const songOfTrack = (id: string) => cat.heardSongOf(w.trackG(id)!);
  const finalSongs = new Set<number>();
  for (const s of score.targets) {
    placed += s.placed;
    fitting += s.placedFitting;
    libraryFitting += s.libraryFitting;
    missing += s.missing;
    const ids = f.sandbox.admin.playlistItems(s.playlistId).filter((x): x is string => x !== null);
    const recs = ids.map(recordingOf);
    duplicates += recs.length - new Set(recs).size;
    for (const r of recs) finalRecordings.add(r);
    for (const id of ids) finalSongs.add(songOfTrack(id));
  }
  const readds = f.removed.filter((id) => finalRecordings.has(recordingOf(id))).length;
  // Songs the user removed are missing by their choice: recall also shown without them.
  const removedFitting = f.removed.filter((id) => {
    const truth = w.trackFacts(w.trackG(id)!).bpm;
    return made.some((t) => [truth, truth * 2, truth / 2].some((b) => b >= t.minBpm && b < t.maxBpm));
  }).length;
  const rowsById = new Map(f.rows.flat().map((r) => [r.trackId, r]));
  const placedRows = f.rows.flat().filter((r) => r.state === 'added' || r.state === 'removed');
  const threeTwo = placedRows.filter(
    (r) => r.bpm !== null && tempoError(r.bpm, w.trackFacts(w.trackG(r.trackId)!).bpm) === '3:2',
  ).length;

  // Recall over the library scanned so far (the scoring counts the whole library, scanned or not).
  const keyOf = new Map(f.candidates.map((c) => [c.trackId, c.recordingKey]));
  // Recall counts songs: one track of each read (one whose lookup is done, if any).
  const readRecordings = new Set(f.candidates.map((c) => recordingOf(c.trackId)));
  const readSongs = new Map<number, string>();
  for (const c of f.candidates) {
    const song = songOfTrack(c.trackId);
    const had = readSongs.get(song);
    if (had === undefined || (!f.tempos.has(keyOf.get(had) ?? '') && f.tempos.has(c.recordingKey)))
      readSongs.set(song, c.trackId);
  }
  const fitsAny = (id: string) => {
    const truth = w.trackFacts(w.trackG(id)!).bpm;
    return f.targets.some((t) => [truth, truth * 2, truth / 2].some((b) => b >= t.minBpm && b < t.maxBpm));
  };
  const fittingRead = [...readSongs].filter(([, id]) => fitsAny(id));
  const placedRead = fittingRead.filter(([song]) => finalSongs.has(song)).length;
  // A run stopped by --max-minutes leaves lookups unfinished: recall over those whose lookup is done.
  const looked = fittingRead.filter(([, id]) => f.tempos.has(keyOf.get(id) ?? ''));
  const placedLooked = looked.filter(([song]) => finalSongs.has(song)).length;
  // The same, two ways of leaving out what is missing by design, each printed under its own label:
  // (a) only songs whose lookup finished at least one add-wait before the end (a later one may still be
  // waiting for company to share its add call); (b) songs truly in a meter the fitting targets leave out
  // by default are not counted as fitting (placed or not); (a+b) both.
  const settledBefore = f.endedAt - f.addWaitMs;
  const earlyEnough = ([, id]: [number, string]) =>
    (f.tempos.get(keyOf.get(id) ?? '')?.resolvedAt.getTime() ?? Infinity) <= settledBefore;
  const meterFits = ([, id]: [number, string]) => !leftOutByDesign(f.sandbox, id, f.targets);
  const recallOf = (list: Array<[number, string]>) => {
    const k = list.filter(([song]) => finalSongs.has(song)).length;
    return `${pct(list.length ? k / list.length : null)} (${k}/${list.length})`;
  };
  const lookedEarly = looked.filter(earlyEnough);
  const lookedMeter = looked.filter(meterFits);
  const lookedBoth = lookedEarly.filter(meterFits);
  const waitText = `${(f.addWaitMs / 1000).toFixed(0)} s`;
  // Placed songs whose true meter is not 4/4 (left out by default: tempo/meter.ts, matching.ts).
  const notFourFour = new Map<string, number>();
  const notFourFourLines: string[] = [];
  for (const r of placedRows) {
    const m = meterOfPattern(cat.tempoOf(w.trackG(r.trackId)!).pattern);
    if (m === '4/4') continue;
    notFourFour.set(m, (notFourFour.get(m) ?? 0) + 1);
    const t = f.tempos.get(keyOf.get(r.trackId) ?? '');
    const alts = t?.alternatives
      .map((a) => `${a.source} ${a.bpm}${a.meter ? ` (${a.meter})` : ''}`)
      .join(', ');
    notFourFourLines.push(
      `  ${r.trackId}: true ${m}; meter decided ${t?.meter ?? '-'} (${t?.meterConfidence ?? '-'}), tempo ${t?.bpm ?? '-'} from ${t?.source ?? '-'} at ${t?.confidence ?? '-'}; ${alts ?? ''}`,
    );
  }
  const notFourFourText = [...notFourFour].map(([m, k]) => `${k} in ${m}`).join(', ') || '0';
  // Placed songs by the meter evidence behind them (the decided meter's confidence names the case: 0.967
  // one 4/4 label and nothing clear from the audio, 0.978 the audio alone, 0.991 a label and the audio…):
  // what leaving out a weaker case would cost against the songs not in 4/4 it would keep out.
  const byMeterEvidence = new Map<string, { placed: number; notFourFour: number }>();
  for (const r of placedRows) {
    const t = f.tempos.get(keyOf.get(r.trackId) ?? '');
    const key = `${t?.meter ?? '-'} at ${t?.meterConfidence ?? '-'}`;
    const e = byMeterEvidence.get(key) ?? { placed: 0, notFourFour: 0 };
    e.placed++;
    if (meterOfPattern(cat.tempoOf(w.trackG(r.trackId)!).pattern) !== '4/4') e.notFourFour++;
    byMeterEvidence.set(key, e);
  }
  const callsBy = (p: (purpose: string) => boolean) =>
    f.ledger.filter((e) => e.endpoint !== 'POST /api/token' && p(e.purpose)).reduce((n, e) => n + e.calls, 0);
  const all = callsBy(() => true);
  const writes = callsBy((p) => p.startsWith('sync:'));
  const fromLiked = f.candidates.filter((c) => c.fromLikedSongs).length;

  const lines: string[] = [];
  lines.push(
    `### ${f.user}: ${f.candidates.length} library tracks scanned (${fromLiked} from Liked Songs; scan ${f.scan}), ${f.seconds.toFixed(0)} s`,
  );
  lines.push('');
  lines.push('| measure | value | target |');
  lines.push('|---|---|---|');
  lines.push(
    `| precision (placed tracks that truly fit their target) | ${pct(placed ? fitting / placed : null)} (${fitting}/${placed}) | ≥ 98 % |`,
  );
  lines.push(
    `| precision with 1 % slack at the range edges | ${pct(placed ? lenientFitting / placed : null)} (${lenientFitting}/${placed}) | |`,
  );
  lines.push(
    `| recall over the whole library (truly fitting songs placed; most not scanned yet) | ${pct(libraryFitting ? (libraryFitting - missing) / libraryFitting : null)} (${libraryFitting - missing}/${libraryFitting}) | ≥ 90 % |`,
  );
  lines.push(
    `| recall over the scanned library (${readSongs.size} songs, ${readRecordings.size} recordings) | ${pct(fittingRead.length ? placedRead / fittingRead.length : null)} (${placedRead}/${fittingRead.length}) | |`,
  );
  lines.push(
    `| the same, over the ${looked.length} whose tempo lookup is done | ${pct(looked.length ? placedLooked / looked.length : null)} (${placedLooked}/${looked.length}) | |`,
  );
  lines.push(
    `| (a) the same, over the ${lookedEarly.length} looked up at least one add-wait (${waitText}) before the end | ${recallOf(lookedEarly)} | |`,
  );
  lines.push(
    `| (b) the same as the looked-up line, songs truly in a meter left out by design not counted as fitting (${looked.length - lookedMeter.length} of them) | ${recallOf(lookedMeter)} | |`,
  );
  lines.push(`| (a) and (b) together | ${recallOf(lookedBoth)} | ≥ 85 % |`);
  lines.push(
    `| the same, the songs the user removed not counted as missed | ${pct(fittingRead.length ? (placedRead + removedFitting) / fittingRead.length : null)} (${placedRead + removedFitting}/${fittingRead.length}) | ≥ 90 % |`,
  );
  lines.push(`| duplicates (same recording twice in a playlist) | ${duplicates} | 0 |`);
  lines.push(`| re-added after the user removed them | ${readds} of ${f.removed.length} removed | 0 |`);
  lines.push(`| placed at 3:2 or 2:3 of the true tempo | ${threeTwo} | 0 |`);
  lines.push(`| placed songs not in 4/4 (true meter) | ${notFourFourText} | 0 (3/4 and 6/8 by default) |`);
  lines.push(
    `| connect → first 50 tracks placed | ${f.first50 ? `${f.first50.seconds.toFixed(1)} s, ${f.first50.calls} Spotify calls (${f.first50.writerCalls} by the writer; the rest connect, library scan, audio-features)` : 'not reached'} | < 60 s (aim 20 s), ~11 calls |`,
  );
  lines.push(
    `| Spotify calls per placed track | ${(writes / Math.max(1, placed)).toFixed(3)} writing, ${(all / Math.max(1, placed)).toFixed(3)} all | |`,
  );
  lines.push(`| Spotify calls in all | ${all} (${writes} by the writer) | ≤ ${DAILY_QUOTA}/day |`);
  lines.push('');
  // Artist spread: the playlist in order, each song as its credited artists (the world's).
  const artistsOfTrack = (id: string) => cat.track(w.trackG(id)!).artists.map(String);
  const spreadOf = (playlistId: string) =>
    spreadMeasures(
      f.sandbox.admin
        .playlistItems(playlistId)
        .filter((x): x is string => x !== null)
        .map(artistsOfTrack),
    );
  lines.push(
    '| target | placed | precision | fitting songs in the whole library | recall | longest same-artist run (best the songs allow) | distinct artists in the first 20 (best) |',
  );
  lines.push('|---|---|---|---|---|---|---|');
  for (const s of score.targets) {
    const m = spreadOf(s.playlistId);
    lines.push(
      `| ${s.name} | ${s.placed} | ${pct(s.precision)} | ${s.libraryFitting} | ${pct(s.recall)} | ${m.longestRun} (${m.bestRun}) | ${m.first20} (${m.bestFirst20}) |`,
    );
  }
  lines.push('');
  lines.push(
    'Calls by purpose: ' +
      [...new Set(f.ledger.map((e) => e.purpose))].map((p) => `${p} ${callsBy((x) => x === p)}`).join(', '),
  );
  lines.push('');
  lines.push(...lookupLines(f.lookups));
  // The lookups that matter most: the truly fitting songs' (a first answer no playlist takes is checked
  // last, in a second look at the lowest priority, so these come sooner than the rest).
  const lookedBy = (s: number) =>
    fittingRead.filter(
      ([, id]) =>
        (f.tempos.get(keyOf.get(id) ?? '')?.resolvedAt.getTime() ?? Infinity) <=
        f.lookups.connectedAt + s * 1000,
    ).length;
  lines.push(
    `Truly fitting songs of the scanned library whose lookup is done: ${lookedBy(60)} at 60 s, ${lookedBy(120)} at 120 s, ${lookedBy(300)} at 300 s, ${looked.length} at the end, of ${fittingRead.length}; tracks queued for a second look (a first answer no playlist takes, or no source knows them): ${f.lookups.secondLooks}.`,
  );
  lines.push('');
  if (notFourFourLines.length > 0) {
    lines.push('Placed songs not in 4/4 (the labels and the tempo behind them):');
    lines.push(...notFourFourLines, '');
  }
  lines.push(
    'Placed songs by the meter decided and its confidence (the evidence behind it), and how many are truly not in 4/4:',
    '',
    '| meter decided | placed | truly not 4/4 |',
    '|---|---:|---:|',
    ...[...byMeterEvidence]
      .sort(([, a], [, b]) => b.placed - a.placed)
      .map(([k, e]) => `| ${k} | ${e.placed} | ${e.notFourFour} |`),
    '',
  );
  const removedIds = new Set(f.removed);
  const unplaced = looked
    .filter(([song]) => !finalSongs.has(song))
    .map(([, id]) => ({ trackId: id, tempo: f.tempos.get(keyOf.get(id)!)! }));
  lines.push(...recallLines(f.sandbox, unplaced, f.targets, removedIds, looked.length));
  const { held, ready, byArtist } = spreadSplit(f);
  const notYet = unplaced.filter(
    (s) =>
      recallClass(f.sandbox, s, f.targets, removedIds) ===
      'fits, not placed yet (a batch, the spread, the budget)',
  );
  const heldNow = notYet.filter((s) => held.has(s.trackId)).length;
  const readyNow = notYet.filter((s) => ready.has(s.trackId)).length;
  lines.push(
    '',
    `Of the ${notYet.length} that fit and are not placed yet, the writer's artist spread (spread.ts, run as the writer runs it on the playlists' last songs) holds ${heldNow} for other artists' company; ${readyNow} would go in the next add; ${notYet.length - heldNow - readyNow} neither (another version placed, a filter, the meter).`,
    ...byArtist,
  );
  const samples = recallSamples(f.sandbox, unplaced, f.targets, removedIds, f.samples);
  if (samples.length > 0) {
    lines.push('');
    lines.push(
      'A few of each class the resolver might place (true tempo and meter; the cache row: tempo, source, confidence, meter; its alternatives; its reason):',
    );
    lines.push(...samples);
  }

  const wrong = score.targets.flatMap((s) => s.wronglyPlaced.map((id) => ({ id, target: s.name })));
  if (wrong.length > 0) {
    lines.push('');
    lines.push('Wrongly placed (true tempo, the tempo used, where it came from):');
    // By the answer behind it and the kind of error: within 1 % of the range (edge noise), 3:2, other.
    const kinds = new Map<string, { edge: number; threeTwo: number; other: number }>();
    for (const { id, target } of wrong) {
      const truth = w.trackFacts(w.trackG(id)!).bpm;
      const row = rowsById.get(id);
      const c = f.candidates.find((x) => x.trackId === id);
      const t = c ? f.tempos.get(c.recordingKey) : undefined;
      const alts = t?.alternatives.map((a) => `${a.source} ${a.bpm}`).join(', ') ?? '';
      const range = made.find(
        (x) => x.playlistId && score.targets.some((s) => s.name === target && s.playlistId === x.playlistId),
      );
      const edge = range ? fitsRange(truth, range.minBpm * 0.99, range.maxBpm * 1.01) : false;
      const kind = edge ? 'edge' : row?.bpm && tempoError(row.bpm, truth) === '3:2' ? 'threeTwo' : 'other';
      const key = `${t?.source ?? '?'} ${(t?.alternatives.length ?? 0) > 1 ? 'with others' : 'alone'} (${t?.confidence ?? '?'})`;
      const k = kinds.get(key) ?? { edge: 0, threeTwo: 0, other: 0 };
      k[kind]++;
      kinds.set(key, k);
      lines.push(
        `  ${id} in ${target}: true ${truth}, used ${row?.bpm ?? '?'} from ${t?.source ?? '?'} (confidence ${t?.confidence ?? '?'}; ${alts}) — ${row?.bpm ? tempoError(row.bpm, truth) : '?'}${edge ? ', within 1 % of the range' : ''}`,
      );
    }
    lines.push('');
    lines.push('| answer behind a wrong placement (confidence) | within 1 % of the range | 3:2 | other |');
    lines.push('|---|---|---|---|');
    for (const [key, k] of [...kinds].sort(([a], [b]) => a.localeCompare(b)))
      lines.push(`| ${key} | ${k.edge} | ${k.threeTwo} | ${k.other} |`);
  }

  const byRecording = new Map(f.candidates.map((c) => [c.recordingKey, c]));
  const recordings = [...byRecording.values()].map((c) => ({
    truth: w.trackFacts(w.trackG(c.trackId)!).bpm,
    tempo: f.tempos.get(c.recordingKey),
  }));
  const rows = sweep(recordings, f.targets, SWEEP);
  lines.push('');
  lines.push(
    `Confidence threshold and edge rule (the product uses ${MIN_CONFIDENCE} and the sources' span of each tempo; a fixed margin below each max was the rule before, ${(100 * EDGE_MARGIN).toFixed(1)} %), over the ${recordings.length} scanned recordings:`,
  );
  lines.push('');
  lines.push('| threshold | edge rule | would place | precision | recall | 3:2 |');
  lines.push('|---|---|---|---|---|---|');
  for (const r of rows)
    lines.push(
      `| ${r.threshold} | ${r.margin === null ? 'span' : `${(100 * r.margin).toFixed(1)} %`} | ${r.placed} | ${pct(r.precision)} | ${pct(r.recall)} | ${r.threeTwo} |`,
    );
  lines.push('');
  lines.push('Every answer with a tempo, by source and confidence (what it would place at any threshold):');
  lines.push('');
  lines.push('| source | confidence | would place | wrong | wrong beyond 1 % of an edge | 3:2 |');
  lines.push('|---|---|---|---|---|---|');
  for (const [key, r] of bySourceAndConfidence(recordings, f.targets))
    lines.push(`| ${key} | ${r.placed} | ${r.wrong} | ${r.wrongBeyond1} | ${r.threeTwo} |`);
  return lines.join('\n');
}
