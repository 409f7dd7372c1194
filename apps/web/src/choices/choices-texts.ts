import type { Meter, OtherMeter, SkipReason, TempoSourceName, TrackList, TrackRow } from '@pacebeat/contract';
import { count } from '../status/status-format.ts';

/** How each tempo source is named to a runner. */
export const SOURCE_NAMES: Record<TempoSourceName, string> = {
  spotify: 'Spotify',
  reccobeats: 'ReccoBeats',
  deezer: 'Deezer',
  getsongbpm: 'GetSongBPM',
  estimator: 'Pacebeat’s estimator',
  correction: 'your correction',
};

/**
 * Why a meter other than 4/4 is left out of a pace playlist, in words. A stride is two steps: a bar of 3
 * or 5 beats starts on the other foot each time; 7/8's bar is uneven; 6/8 splits each beat in three.
 */
export const METER_REASONS: Record<OtherMeter, string> = {
  '3/4': 'in 3/4: the beat falls on alternating feet',
  '6/8': 'in 6/8: each beat splits in three against your two steps',
  '5/4': 'in 5/4: the beat falls on alternating feet',
  '7/8': 'in 7/8: the bar is uneven under your stride',
};

/** A meter as a runner reads it. */
export const METER_NAMES: Record<Meter, string> = {
  '4/4': '4/4 (or any two-beat feel)',
  '3/4': '3/4 (a waltz)',
  '6/8': '6/8',
  '5/4': '5/4',
  '7/8': '7/8',
};

export const SKIP_REASONS: Record<SkipReason, string> = {
  unknown_tempo: 'No source knows its tempo',
  uncertain: 'Its tempo is too uncertain to trust',
  excluded_track: 'You excluded this track',
  excluded_artist: 'You excluded this artist',
  explicit: 'Explicit, and this playlist leaves explicit tracks out',
  duration: 'Its length is outside this playlist’s limits',
  not_liked: 'Not in your Liked Songs, and this playlist takes only those',
  meter_3_4: METER_REASONS['3/4'],
  meter_6_8: METER_REASONS['6/8'],
  meter_5_4: METER_REASONS['5/4'],
  meter_7_8: METER_REASONS['7/8'],
};

export const LISTS: Record<TrackList, { tab: string; about: string; empty: string }> = {
  placed: {
    tab: 'Placed',
    about: 'The tracks Pacebeat added to this playlist, newest first.',
    empty: 'Pacebeat has not added a track to this playlist yet.',
  },
  waiting: {
    tab: 'Waiting',
    about:
      'Tracks that fit and will be added: Pacebeat adds them in batches, within Spotify’s daily call budget, ' +
      'and keeps artists apart. A track whose artist is among the playlist’s last 5 songs, or has more songs ' +
      'waiting, waits here for other artists’ songs, so that one band does not play many times in a row ' +
      '(after a day it goes with at most 2 of its artist in a row).',
    empty: 'No track is waiting: everything that fits is in the playlist.',
  },
  skipped: {
    tab: 'Skipped',
    about: 'Tracks Pacebeat leaves out of this playlist, and why. Fix a tempo to place a track.',
    empty: 'No track is skipped.',
  },
};

/** A page past the end of a list that is not empty (the page moves to the last one at once). */
export const pastTheEnd = (total: number) =>
  `Nothing on this page: the list has ${count(total)} ${total === 1 ? 'entry' : 'entries'}. Going to its last page…`;

const bpmText = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** "172 BPM", "86 BPM, run at double time (172)", or "Tempo unknown". */
export function tempoText(t: Pick<TrackRow, 'bpm' | 'fold'>): string {
  if (t.bpm === null) return 'Tempo unknown';
  const bpm = `${bpmText(t.bpm)} BPM`;
  if (t.fold === 'double') return `${bpm}, run at double time (${bpmText(t.bpm * 2)})`;
  if (t.fold === 'half') return `${bpm}, run at half time (${bpmText(t.bpm / 2)})`;
  return bpm;
}

/**
 * The fix-tempo dialog's "Now" line. With a correction it leads: a placed track keeps the tempo it was
 * placed with until the runner asks to move it, so its row's `bpm` may still be the sources' value.
 */
export function currentTempoText(
  t: Pick<TrackRow, 'bpm' | 'fold' | 'source' | 'confidence' | 'corrected_bpm' | 'resolver_bpm'>,
): string {
  if (t.corrected_bpm === null) {
    const source = sourceText(t);
    return `Now: ${tempoText(t)}${source ? ` ${source}` : ''}.`;
  }
  const said = t.resolver_bpm !== null ? `; the sources said ${bpmText(t.resolver_bpm)} BPM` : '';
  const placed =
    t.bpm !== null && t.bpm !== t.corrected_bpm
      ? `; this playlist still has it at ${bpmText(t.bpm)} BPM, where it was placed`
      : '';
  const now = t.bpm === t.corrected_bpm ? tempoText(t) : `${bpmText(t.corrected_bpm)} BPM`;
  return `Now: ${now} from your correction${said}${placed}.`;
}

/** "from ReccoBeats (85 %)", "from your correction", or null. */
export function sourceText(t: Pick<TrackRow, 'source' | 'confidence'>): string | null {
  if (!t.source) return null;
  const sure = t.confidence !== null ? ` (${Math.round(t.confidence * 100)} % sure)` : '';
  return `from ${SOURCE_NAMES[t.source]}${sure}`;
}

export { bpmText };
