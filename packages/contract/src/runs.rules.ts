// Runs (workouts), without zod: the limits, the texts of each refusal, the presets and how a run's blocks
// unfold into segments. The web app's editor and the server's schemas (runs.ts) apply the same rules.
import { TARGET_BPM_MAX, TARGET_BPM_MIN } from './playlists.rules.ts';

/** A segment's shortest and longest duration, in seconds. */
export const RUN_SEGMENT_MIN_S = 30;
export const RUN_SEGMENT_MAX_S = 3 * 3600;
/** The longest run, all repeats unfolded (a marathon at an easy pace, with room). */
export const RUN_TOTAL_MAX_S = 5 * 3600;
/** Blocks in a run, segments in a repeat, times a repeat runs, and segments once unfolded. */
export const RUN_BLOCKS_MAX = 30;
export const RUN_REPEAT_SEGMENTS_MAX = 6;
export const RUN_REPEAT_TIMES_MIN = 2;
export const RUN_REPEAT_TIMES_MAX = 30;
export const RUN_SEGMENTS_MAX = 120;
/** Saved runs per runner. */
export const RUNS_PER_RUNNER_MAX = 20;
/** A segment's label ("Warm-up", "Fast"), in characters. */
export const RUN_LABEL_MAX = 40;

export const RUN_TEXTS = {
  noSuchRun: 'You have no such run.',
  durationRange: `A segment lasts from ${RUN_SEGMENT_MIN_S} seconds to ${RUN_SEGMENT_MAX_S / 3600} hours, in whole seconds.`,
  labelTooLong: `A segment's label may hold at most ${RUN_LABEL_MAX} characters.`,
  labelControl: "A segment's label may not hold line breaks, tabs or other control characters.",
  noBlocks: 'A run needs at least one segment.',
  tooManyBlocks: `A run may have at most ${RUN_BLOCKS_MAX} blocks (a repeat counts as one).`,
  repeatSegments: `A repeat holds 1 to ${RUN_REPEAT_SEGMENTS_MAX} segments.`,
  repeatTimes: `A repeat runs ${RUN_REPEAT_TIMES_MIN} to ${RUN_REPEAT_TIMES_MAX} times.`,
  tooManySegments: `A run may have at most ${RUN_SEGMENTS_MAX} segments once its repeats are counted out.`,
  tooLong: `A run may last at most ${RUN_TOTAL_MAX_S / 3600} hours.`,
  tooManyRuns: `You have ${RUNS_PER_RUNNER_MAX} runs, the most Pacebeat keeps for one runner: delete one to save another.`,
  nameTaken: 'You already have a run of that name.',
  noBuild: 'This run has not been built yet: build it first.',
} as const;

/** One stretch of a run at one tempo: how long, and the BPM range a song's beat (or its double/half) must meet. */
export interface RunSegmentShape {
  duration_s: number;
  min_bpm: number;
  max_bpm: number;
  /** What the runner calls it ("Warm-up", "Fast"); may be empty. */
  label: string;
}

/** A run as the runner edits it: segments, and repeats of a few segments (`6 × (3 min fast, 2 min easy)`). */
export type RunBlockShape =
  ({ kind: 'segment' } & RunSegmentShape) | { kind: 'repeat'; times: number; segments: RunSegmentShape[] };

/** A segment of the unfolded run: where it starts, and which block (and repeat) it comes from. */
export interface RunPlanSegment extends RunSegmentShape {
  index: number;
  start_s: number;
  /** 1-based round of its repeat, or null outside a repeat. */
  round: number | null;
}

/** The run's segments in order, repeats counted out. */
export function unfoldRun(blocks: readonly RunBlockShape[]): RunPlanSegment[] {
  const out: RunPlanSegment[] = [];
  let start = 0;
  const push = (s: RunSegmentShape, round: number | null) => {
    const { duration_s, min_bpm, max_bpm, label } = s;
    out.push({ index: out.length, start_s: start, duration_s, min_bpm, max_bpm, label, round });
    start += s.duration_s;
  };
  for (const b of blocks) {
    if (b.kind === 'segment') push(b, null);
    else for (let r = 1; r <= b.times; r++) for (const s of b.segments) push(s, r);
  }
  return out;
}

/** How many segments the blocks unfold into, without unfolding them. */
export const segmentCount = (blocks: readonly RunBlockShape[]) =>
  blocks.reduce((n, b) => n + (b.kind === 'segment' ? 1 : b.times * b.segments.length), 0);

/** The run's planned length in seconds. */
export const runDuration = (blocks: readonly RunBlockShape[]) =>
  blocks.reduce(
    (n, b) =>
      n + (b.kind === 'segment' ? b.duration_s : b.times * b.segments.reduce((m, s) => m + s.duration_s, 0)),
    0,
  );

/** "45 min", "3 min 30 s", "1 h 5 min". */
export function formatDuration(totalS: number): string {
  const s = Math.round(totalS);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const parts = [h ? `${h} h` : '', m ? `${m} min` : '', sec ? `${sec} s` : ''].filter(Boolean);
  return parts.length ? parts.join(' ') : '0 s';
}

const bpmText = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
const segmentText = (s: RunSegmentShape) =>
  `${formatDuration(s.duration_s)}${s.label ? ` ${s.label.toLowerCase()}` : ''} at ${bpmText(s.min_bpm)}–${bpmText(s.max_bpm)} BPM`;

/** The run's plan in words, as its Spotify playlist's description says it: "10 min warm-up at 160–170 BPM, 6 × (…)". */
export function describeRun(blocks: readonly RunBlockShape[]): string {
  return blocks
    .map((b) =>
      b.kind === 'segment' ? segmentText(b) : `${b.times} × (${b.segments.map(segmentText).join(', ')})`,
    )
    .join(', ');
}

/** Half the width of a segment's range around a cadence: 170 steps/min gives 165–175 BPM. */
export const RUN_CADENCE_HALF_WIDTH = 5;

/** The BPM range of a cadence, kept within what a target may have. */
export function runRange(cadence: number): { min_bpm: number; max_bpm: number } {
  const c = Math.round(cadence);
  const clamp = (n: number) => Math.min(TARGET_BPM_MAX, Math.max(TARGET_BPM_MIN, n));
  return { min_bpm: clamp(c - RUN_CADENCE_HALF_WIDTH), max_bpm: clamp(c + RUN_CADENCE_HALF_WIDTH) };
}

export const RUN_PRESETS = ['easy', 'tempo', 'intervals', 'long_fast_finish', 'fartlek'] as const;
export type RunPresetId = (typeof RUN_PRESETS)[number];

export const RUN_PRESET_NAMES: Record<RunPresetId, string> = {
  easy: 'Easy run',
  tempo: 'Tempo run',
  intervals: 'Intervals',
  long_fast_finish: 'Long run, fast finish',
  fartlek: 'Fartlek',
};

/**
 * A preset's blocks for a runner whose easy cadence is `easy` steps/min. Faster running is mostly a
 * longer stride: a tempo effort is about 8 steps/min above easy, a fast interval about 12, a cool-down
 * about 4 below (the paces page's cadence ∝ speed^0.2).
 */
export function runPreset(id: RunPresetId, easy = 165): RunBlockShape[] {
  const seg = (minutes: number, label: string, cadence: number): { kind: 'segment' } & RunSegmentShape => ({
    kind: 'segment',
    duration_s: Math.round(minutes * 60),
    label,
    ...runRange(cadence),
  });
  const plain = ({ kind: _kind, ...s }: { kind: 'segment' } & RunSegmentShape): RunSegmentShape => s;
  switch (id) {
    case 'easy':
      return [seg(45, 'Easy', easy)];
    case 'tempo':
      return [seg(10, 'Warm-up', easy), seg(20, 'Tempo', easy + 8), seg(10, 'Cool-down', easy - 4)];
    case 'intervals':
      return [
        seg(10, 'Warm-up', easy),
        {
          kind: 'repeat',
          times: 6,
          segments: [plain(seg(3, 'Fast', easy + 12)), plain(seg(2, 'Easy', easy))],
        },
        seg(10, 'Cool-down', easy - 4),
      ];
    case 'long_fast_finish':
      return [seg(75, 'Long', easy), seg(15, 'Fast finish', easy + 8)];
    case 'fartlek':
      return [
        seg(10, 'Warm-up', easy),
        seg(1, 'Surge', easy + 12),
        seg(2, 'Easy', easy),
        seg(2, 'Surge', easy + 12),
        seg(2, 'Easy', easy),
        seg(3, 'Surge', easy + 10),
        seg(2, 'Easy', easy),
        seg(2, 'Surge', easy + 12),
        seg(2, 'Easy', easy),
        seg(1, 'Surge', easy + 14),
        seg(8, 'Cool-down', easy - 4),
      ];
  }
}
