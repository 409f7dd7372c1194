// What each pattern plays in one bar (the drums, bass and chords; the lead line and crashes are
// added in patterns.ts). `at` is in beats from the start of the song.
import type { BarContext, Pattern } from './patterns.ts';

export const GROOVES: Record<Pattern, (c: BarContext) => void> = {
  'four-on-the-floor': ({ arr, bar, b0, h, ev, v, hats, chordPart }) => {
    const cycle = bar % 16;
    const inBreak = cycle >= arr.breakFrom && cycle < arr.breakTo;
    if (!inBreak) {
      for (let k = 0; k < 4; k++) ev.push({ kind: 'kick', at: b0 + k, vel: v(0.95, 0.05) });
      for (const k of [1, 3]) ev.push({ kind: arr.variant < 2 ? 'clap' : 'snare', at: b0 + k, vel: v(0.75) });
      for (const k of [0.5, 1.5, 2.5, 3.5])
        ev.push({
          kind: 'bass',
          at: b0 + k,
          vel: v(0.7, 0.05),
          beats: 0.4,
          freq: h.bassRoot(bar) * (k === 2.5 && arr.variant === 3 ? 2 : 1),
        });
    }
    if (arr.hatDiv === 4)
      hats(
        (p) => p % 1 === 0.5,
        (p) => (p % 1 === 0.5 ? 0.7 : 0.35),
      );
    else for (const k of [0.5, 1.5, 2.5, 3.5]) ev.push({ kind: 'hat', at: b0 + k, vel: v(0.7), open: true });
    if (inBreak) ev.push({ kind: 'pad', at: b0, vel: 1, beats: 4, freqs: h.chord(bar) });
    else chordPart();
  },
  backbeat: ({ arr, bar, b0, h, rng, ev, fill, v, hats, addFill, chordPart }) => {
    const kicks = [
      [0, 2],
      [0, 2, 2.5],
      [0, 1.5, 2],
      [0, 0.5, 2, 3.5],
    ][arr.variant] as number[];
    for (const k of kicks) ev.push({ kind: 'kick', at: b0 + k, vel: v(k % 1 === 0 ? 0.95 : 0.75) });
    ev.push({ kind: 'snare', at: b0 + 1, vel: v(0.85) });
    if (!fill) ev.push({ kind: 'snare', at: b0 + 3, vel: v(0.85) });
    else addFill(3);
    // Ghost notes in busier variants.
    if (arr.variant >= 2 && rng.chance(0.5)) ev.push({ kind: 'snare', at: b0 + 2.75, vel: v(0.2) });
    hats(
      (p) => arr.variant === 1 && p === 3.5,
      (p) => (p % 1 === 0 ? 0.6 : 0.4),
      fill ? 3 : 4,
    );
    for (let p = 0; p < 4; p += 0.5)
      ev.push({
        kind: 'bass',
        at: b0 + p,
        vel: v(p % 1 === 0 ? 0.75 : 0.6, 0.05),
        beats: 0.45,
        freq: h.bassRoot(bar),
      });
    chordPart();
  },
  'half-time': ({ arr, bar, b0, h, ev, fill, v, hats }) => {
    const kicks = [
      [0, 2.5],
      [0, 0.75, 2.75],
      [0, 1.75, 2.5],
      [0, 3.5],
    ][arr.variant] as number[];
    for (const k of kicks) {
      ev.push({ kind: 'kick', at: b0 + k, vel: v(0.9) });
      ev.push({
        kind: 'sub',
        at: b0 + k,
        vel: v(0.7, 0.05),
        beats: k === 0 ? 1.5 : 1,
        freq: h.bassRoot(bar),
      });
    }
    ev.push({ kind: arr.variant === 2 ? 'clap' : 'snare', at: b0 + 2, vel: v(0.9) });
    if (fill) {
      // A hat roll in sixteenths across the last beat.
      hats(
        () => false,
        (p) => (p % 1 === 0 ? 0.55 : 0.4),
        3,
      );
      for (let p = 3; p < 4; p += 0.25)
        ev.push({ kind: 'hat', at: b0 + p, vel: v(0.35 + (p - 3) * 0.4), open: false });
    } else
      hats(
        (p) => p === 3.5 && arr.variant === 1,
        (p) => (p % 1 === 0 ? 0.55 : 0.4),
      );
    if (arr.chords !== 'none') ev.push({ kind: 'pad', at: b0, vel: 0.9, beats: 4, freqs: h.chord(bar) });
  },
  swing: ({ arr, bar, b0, h, rng, ev, v }) => {
    const off = arr.swing;
    for (const p of [0, 1, 1 + off, 2, 3, 3 + off])
      ev.push({ kind: 'ride', at: b0 + p, vel: v(p % 1 === 0 ? 0.7 : 0.45) });
    for (const p of [1, 3]) ev.push({ kind: 'hat', at: b0 + p, vel: v(0.4), open: false });
    for (let p = 0; p < 4; p++) ev.push({ kind: 'kick', at: b0 + p, vel: v(0.22) });
    // Snare comping on swung off-beats, and a "bomb" now and then.
    for (let p = 0; p < 4; p++) {
      if (rng.chance(0.25)) ev.push({ kind: 'snare', at: b0 + p + off, vel: v(0.3) });
    }
    if (rng.chance(0.15)) ev.push({ kind: 'kick', at: b0 + 3 + off, vel: v(0.7) });
    // Walking bass: a chord tone or a neighbour on every beat.
    const root = h.bassRoot(bar);
    const steps = [
      1,
      Math.pow(2, rng.pick([3, 4, 7]) / 12),
      Math.pow(2, 7 / 12),
      Math.pow(2, rng.pick([10, 11, 13]) / 12),
    ];
    for (let p = 0; p < 4; p++)
      ev.push({ kind: 'bass', at: b0 + p, vel: v(0.7), beats: 0.9, freq: root * 2 * (steps[p] as number) });
    // Piano comping: the Charleston rhythm or a single push.
    const comp = arr.variant % 2 === 0 ? [0, 1 + off] : [rng.pick([1 + off, 2 + off, 3 + off])];
    for (const p of comp)
      for (const f of h.chord(bar)) ev.push({ kind: 'piano', at: b0 + p, vel: v(0.35), beats: 0.6, freq: f });
  },
  waltz: ({ arr, bar, b0, h, rng, ev, v, hats, chordPart }) => {
    if (arr.variant <= 1) {
      // Oom-pah-pah: bass and kick on one, chords on two and three.
      ev.push({ kind: 'kick', at: b0, vel: v(0.8) });
      ev.push({ kind: 'bass', at: b0, vel: v(0.8), beats: 1, freq: h.bassRoot(bar) * 2 });
      for (const p of [1, 2]) {
        ev.push({ kind: 'stab', at: b0 + p, vel: v(0.65), beats: 0.6, freqs: h.chord(bar) });
        ev.push({ kind: 'hat', at: b0 + p, vel: v(0.45), open: false });
      }
      if (arr.variant === 1) ev.push({ kind: 'snare', at: b0 + 2, vel: v(0.4) });
    } else if (arr.variant === 2) {
      // Pop 3/4: kick on one, snare on three, eighth hats.
      ev.push({ kind: 'kick', at: b0, vel: v(0.9) });
      if (rng.chance(0.4)) ev.push({ kind: 'kick', at: b0 + 1.5, vel: v(0.6) });
      ev.push({ kind: 'snare', at: b0 + 2, vel: v(0.8) });
      hats(
        () => false,
        (p) => (p % 1 === 0 ? 0.55 : 0.35),
      );
      ev.push({ kind: 'bass', at: b0, vel: v(0.75), beats: 1.5, freq: h.bassRoot(bar) });
      ev.push({ kind: 'bass', at: b0 + 2, vel: v(0.6), beats: 0.9, freq: h.bassRoot(bar) * 1.5 });
      chordPart();
    } else {
      // Jazz waltz: ride on every beat with a swung pickup, bass on one, comping on two or three.
      for (const p of [0, 1, 2, 2 + arr.swing + 0.12])
        ev.push({ kind: 'ride', at: b0 + p, vel: v(p === 0 ? 0.75 : 0.5) });
      ev.push({ kind: 'kick', at: b0, vel: v(0.5) });
      ev.push({ kind: 'hat', at: b0 + 1, vel: v(0.35), open: false });
      ev.push({ kind: 'bass', at: b0, vel: v(0.75), beats: 2, freq: h.bassRoot(bar) * 2 });
      ev.push({ kind: 'bass', at: b0 + 2, vel: v(0.6), beats: 0.9, freq: h.bassRoot(bar) * 3 });
      for (const f of h.chord(bar))
        ev.push({ kind: 'piano', at: b0 + rng.pick([1, 2]), vel: v(0.35), beats: 0.8, freq: f });
    }
    // A melody note on most beats.
    let step = rng.int(0, 4);
    for (let p = 0; p < 3; p++) {
      if (rng.chance(0.7))
        ev.push({ kind: 'piano', at: b0 + p, vel: v(0.4), beats: 0.95, freq: h.melody(bar, step) });
      step += rng.pick([-1, 1, 2, -2]);
    }
  },
  sparse: ({ arr, bar, b0, h, rng, ev, v }) => {
    // Solo piano: a bass note, a chord and a few melody notes; rests, dotted rhythms and uneven
    // dynamics, no drums at all.
    const cells = [
      [0],
      [0, 2],
      [0, 1, 2, 3],
      [0, 1.5, 2],
      [0, 2, 3],
      [0, 0.5, 1, 2],
      [0, 3],
      [0, 1, 2],
      [2, 3],
    ];
    const bassBeats = rng.chance(0.6) ? [0] : [0, 2];
    for (const p of bassBeats)
      ev.push({
        kind: 'piano',
        at: b0 + p,
        vel: v(0.55),
        beats: bassBeats.length === 1 ? 3.8 : 1.9,
        freq: h.bassRoot(bar) * 2,
      });
    if (rng.chance(0.5))
      for (const f of h.chord(bar))
        ev.push({ kind: 'piano', at: b0 + rng.pick([0, 0, 1, 2]), vel: v(0.35), beats: 1.9, freq: f });
    let step = rng.int(2, 6);
    for (const p of rng.pick(cells)) {
      if (rng.chance(0.1)) continue;
      ev.push({ kind: 'piano', at: b0 + p, vel: v(0.55, 0.25), beats: 0.95, freq: h.melody(bar, step) });
      step += rng.pick([-2, -1, 1, 1, 2, 3]);
      step = Math.max(0, Math.min(10, step));
    }
    if (arr.chords === 'pad') ev.push({ kind: 'pad', at: b0, vel: 0.5, beats: 4, freqs: h.chord(bar) });
  },
  'six-eight': ({ arr, bar, b0, h, rng, ev, fill, v }) => {
    // Two beats a bar (dotted quarters), each of three eighths: the strong eighths are 1 and 4.
    const eighths = [0, 1, 2, 3, 4, 5].map((k) => k / 3);
    const strong = (p: number) => p === 0 || p === 1;
    if (arr.variant === 2) {
      // Arpeggiated ballad: a chord tone on every eighth, bass on each beat, a soft kick on one.
      const chord = h.chord(bar);
      eighths.forEach((p, k) =>
        ev.push({
          kind: 'piano',
          at: b0 + p,
          vel: v(strong(p) ? 0.55 : 0.32),
          beats: 0.3,
          freq: (chord[k % chord.length] as number) * (k === 3 ? 2 : 1),
        }),
      );
      ev.push({ kind: 'kick', at: b0, vel: v(0.5) });
    } else {
      // Rock 6/8: kick on one (and on the third eighth in variant 1), snare on four, an eighth on every hat.
      ev.push({ kind: 'kick', at: b0, vel: v(0.9) });
      if (arr.variant === 1) ev.push({ kind: 'kick', at: b0 + 2 / 3, vel: v(0.6) });
      if (!fill) ev.push({ kind: 'snare', at: b0 + 1, vel: v(0.85) });
      else for (const p of [1, 4 / 3, 5 / 3]) ev.push({ kind: 'tom', at: b0 + p, vel: v(0.7), pitch: 150 });
      for (const p of eighths)
        if (arr.variant === 3) ev.push({ kind: 'ride', at: b0 + p, vel: v(strong(p) ? 0.6 : 0.4) });
        else ev.push({ kind: 'hat', at: b0 + p, vel: v(strong(p) ? 0.6 : 0.35), open: false });
    }
    for (const p of [0, 1])
      ev.push({ kind: 'bass', at: b0 + p, vel: v(p === 0 ? 0.8 : 0.65), beats: 0.9, freq: h.bassRoot(bar) });
    if (arr.chords !== 'none' && rng.chance(0.8))
      ev.push({ kind: 'pad', at: b0, vel: 0.7, beats: 2, freqs: h.chord(bar) });
  },
  'five-four': ({ arr, bar, b0, h, ev, fill, v, hats }) => {
    // 3 + 2: kick on one and four, snare on three and five, chords on the weak beats of each group.
    for (const p of [0, 3]) ev.push({ kind: 'kick', at: b0 + p, vel: v(p === 0 ? 0.95 : 0.8) });
    ev.push({ kind: 'snare', at: b0 + 2, vel: v(0.8) });
    if (!fill) ev.push({ kind: 'snare', at: b0 + 4, vel: v(0.8) });
    hats(
      () => false,
      (p) => (p === 0 || p === 3 ? 0.6 : p % 1 === 0 ? 0.45 : 0.3),
      fill ? 4 : 5,
    );
    for (const p of [0, 3])
      ev.push({
        kind: 'bass',
        at: b0 + p,
        vel: v(0.8, 0.05),
        beats: p === 0 ? 2.8 : 1.8,
        freq: h.bassRoot(bar),
      });
    if (arr.chords !== 'none')
      for (const p of [1, 2, 4])
        ev.push({ kind: 'stab', at: b0 + p, vel: v(0.5), beats: 0.5, freqs: h.chord(bar) });
  },
  'seven-eight': ({ arr, bar, b0, h, ev, v }) => {
    // 2 + 2 + 3 eighths: the groups start on eighths 0, 2 and 4 (beats 0, 1, 2); the bar is 3.5 beats.
    ev.push({ kind: 'kick', at: b0, vel: v(0.95) });
    ev.push({ kind: 'snare', at: b0 + 1, vel: v(0.75) });
    ev.push({ kind: 'kick', at: b0 + 2, vel: v(0.8) });
    if (arr.variant % 2 === 1) ev.push({ kind: 'snare', at: b0 + 3, vel: v(0.55) });
    for (let k = 0; k < 7; k++) {
      const p = k / 2;
      ev.push({ kind: 'hat', at: b0 + p, vel: v(k === 0 || k === 2 || k === 4 ? 0.6 : 0.32), open: false });
    }
    for (const p of [0, 1, 2])
      ev.push({
        kind: 'bass',
        at: b0 + p,
        vel: v(p === 0 ? 0.85 : 0.65, 0.05),
        beats: p === 2 ? 1.4 : 0.9,
        freq: h.bassRoot(bar) * (p === 1 ? 1.5 : 1),
      });
    if (arr.chords !== 'none') ev.push({ kind: 'pad', at: b0, vel: 0.6, beats: 3.5, freqs: h.chord(bar) });
  },
};
