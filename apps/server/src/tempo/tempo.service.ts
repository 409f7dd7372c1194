// The tempo resolver: the one way the rest of the server gets a track's tempo. For each track, in
// order: the shared cache → Spotify audio-features (a user's lookup, when the app still has it) →
// ReccoBeats (batched) → Deezer (ISRC, else cleaned artist + title) → GetSongBPM (with a key) → the
// estimator on the Deezer preview (these last two, the checks after Deezer, can be handed on and run
// later: `checkTempos`). Every answer carries its source, a confidence and the alternatives seen; a track
// nobody knows is "unknown" with a reason and a retry time, cached for every user.
import type { TempoAlternative } from '../db/tempo.schema.ts';
import type { DeezerClient, DeezerTrack } from './clients/deezer.client.ts';
import type { GetSongBpmClient } from './clients/getsongbpm.client.ts';
import type { CallOptions, Outcome } from './clients/outside.ts';
import type { PreviewClient } from './clients/preview.client.ts';
import { RECCOBEATS_BATCH, type ReccoBeatsClient } from './clients/reccobeats.client.ts';
import {
  decide,
  MIN_ESTIMATE_CONFIDENCE,
  octaveRelated,
  SOURCE_CONFIDENCE,
  type AudioEstimate,
  type TempoSource,
} from './decide.ts';
import { decideMeter, METER_SETTLED, type Meter } from './meter.ts';
import {
  addClock,
  addTime,
  newClock,
  timedWith,
  type LookupTimings,
  type StageMs,
} from './lookup-timings.ts';
import {
  cleanTitle,
  pickSearchHit,
  primaryArtist,
  refusedVersion,
  sameName,
  sameRecordingByName,
} from './match.ts';
import type { CachedTempo, TempoRepository, TempoRow } from './tempo.repository.ts';

export interface TrackInput {
  spotifyId: string;
  isrc?: string | null;
  artists: string[];
  title: string;
  durationMs: number;
}

export interface TempoAnswer {
  /** found: `bpm` is set; unknown: nobody knows (until `retryAt`); deferred: a service asked us to wait. */
  status: 'found' | 'unknown' | 'deferred';
  bpm: number | null;
  source: TempoSource | null;
  confidence: number;
  alternatives: TempoAlternative[];
  /** The meter decided from the sources' time signatures and the audio (meter.ts); null: nobody said. */
  meter?: Meter | null;
  meterConfidence?: number;
  reason?: string;
  retryAt?: Date;
  /** Answered from the shared cache. */
  cached: boolean;
}

/**
 * Spotify audio-features for some tracks, through the Spotify client's budget (one user's token, so it
 * is passed per lookup); 'unavailable' when the app lacks it. Throws when Spotify defers or fails.
 */
export type AudioFeatures = (spotifyIds: string[]) => Promise<Map<string, SourceTempo> | 'unavailable'>;

/** What a metadata source says of a track: its tempo and, when it gives one, its time signature. */
export interface SourceTempo {
  bpm: number;
  meter?: Meter;
}

export interface TempoServiceDeps {
  repo: Pick<TempoRepository, 'getByKeys' | 'save'>;
  reccobeats: ReccoBeatsClient;
  deezer: DeezerClient;
  previews: PreviewClient;
  /** Only with a GetSongBPM key. */
  getsongbpm?: GetSongBpmClient;
  /** Tempo from a 30 s MP3 preview (the estimator's worker pool); throws when it cannot decode. */
  estimatePreview?: (mp3: Uint8Array) => Promise<AudioEstimate>;
  settings: { retryUnknownDays: number };
  now?: () => Date;
  /** Parallel Deezer lookups and preview estimates per batch. */
  concurrency?: number;
  /** A background call's wait for a free slot (default BACKGROUND_WAIT_MS; tests). */
  backgroundWaitMs?: number;
}

/** With onEarlyAnswers, decided tracks are cached and announced in groups of this many. */
const EARLY_GROUP = 10;
/** Tracks for the audio handed on together (one tempo-audio job), as soon as Deezer is done with them. */
const HAND_ON_GROUP = 10;

/**
 * Running cadences (steps per minute), for ordering only: tracks whose first answer folds (×2, ÷2) into
 * this band are checked first, so a new library's running playlists fill before its other tempos are known.
 */
const RUNNING_BAND = { min: 145, max: 195 };
const inRunningBand = (bpm: number) => {
  const folded = bpm * 2 ** Math.round(Math.log2(170 / bpm));
  return folded >= RUNNING_BAND.min && folded < RUNNING_BAND.max;
};

/** A BPM range some playlist or run of the installation takes (its tempo, double or half). */
export interface WantedRange {
  minBpm: number;
  maxBpm: number;
}

/**
 * Slack around a wanted range when deciding what to check first: a source's value is a fraction of a per
 * cent off (±0.4 % in the simulated world), and the decision is only about order, so a wide margin is cheap.
 */
const WANTED_SLACK = 0.02;

/**
 * Whether a first answer's tempo (Spotify's, ReccoBeats') is one a playlist could take: the running band
 * (what the default targets and runs' cadences fold into) or one of `ranges`, up to a factor of 2. Tracks
 * whose first answers are all elsewhere wait for a second look (`resolveTempos`' `secondLook`).
 */
export function wantedTempo(ranges: readonly WantedRange[]): (bpm: number) => boolean {
  return (bpm) =>
    inRunningBand(bpm) ||
    ranges.some((r) =>
      [bpm, bpm * 2, bpm / 2].some(
        (b) => b >= r.minBpm * (1 - WANTED_SLACK) && b < r.maxBpm * (1 + WANTED_SLACK),
      ),
    );
}

/**
 * A track put off to a second look, with what its first sources said (so they are not asked again): their
 * answers, and the ISRC ReccoBeats gave a track that came without one.
 */
export interface FirstAnswers {
  track: TrackInput;
  answers: TempoAlternative[];
  isrc?: string;
}

/** Retry time for a lookup that failed for a passing reason (errors, time-outs, garbage). */
const TRANSIENT_RETRY_MS = 6 * 3600_000;

/**
 * A running tempo whose meter only the audio can settle, and whose preview could not be heard for a
 * passing reason, is heard again rather than placed on one label (a waltz is labelled 4/4 that often):
 * a preview that must wait goes back on the tempo-audio queue for when its pace allows; one that failed
 * is tried again after this wait, times the tries so far, up to AUDIO_TRIES in all, then the label is
 * taken (and the track looked up again after TRANSIENT_RETRY_MS).
 */
const AUDIO_RETRY_MS = 60_000;
const AUDIO_TRIES = 3;

/**
 * In a tempo-audio job, a check waits this long for its preview's (or a needed GetSongBPM call's) pacing
 * slot, instead of the callers' 3 s: a check that went back on the queue came again behind younger jobs,
 * so when the audio was the bottleneck it served every waiting library a little and none to the end (a
 * 100-runner storm at 1 preview a second: 33,421 checks deferred and re-queued for 999 heard, and 1 of 100
 * runners at 50 placed). Waiting keeps the queue's order (priority, then age); tempo-audio workers are as
 * few as the preview pace needs (`audioWorkers`), so the line of waiting checks stays short.
 */
export const AUDIO_JOB_SLOT_WAIT_MS = 30_000;

/** How long a paced call may wait for its slot, and what ends the wait early (a shutdown). */
type SlotWait = CallOptions;

/**
 * Background work (`isBackground`: catalogs of runners past their 50, second looks) waits this long in
 * its job for a Deezer or GetSongBPM
 * slot the foreground leaves free (`CallOptions.background`): a worker does not stay long with background
 * work while first-50 lookups queue for one.
 */
export const BACKGROUND_WAIT_MS = 5_000;
/** ... and is then deferred by this long (its job goes back on the queue, asking nobody until then). */
export const BACKGROUND_RETRY_MS = 20_000;

/** The cache key of a recording: its ISRC when known, else the Spotify id. */
export const tempoKey = (t: Pick<TrackInput, 'spotifyId' | 'isrc'>) =>
  t.isrc ? `isrc:${t.isrc.toUpperCase()}` : `spotify:${t.spotifyId}`;

interface Work {
  key: string;
  track: TrackInput;
  answers: TempoAlternative[];
  notes: string[];
  transient: boolean;
  deferredUntil?: Date;
  preview?: string;
  /**
   * The Deezer match (and so its preview) was found by artist and title, not by ISRC, and may be another
   * recording (`sameRecordingByName` could not say it is the same).
   */
  bySearch?: boolean;
  /** Its check was cut short by the shutdown (the estimator's threads ended): left undecided. */
  cutShort?: boolean;
  /** The recording's ISRC as ReccoBeats knows it, for a track that came without one. */
  isrc?: string;
  estimate?: AudioEstimate;
  /** Where its time went (lookup-timings.ts). */
  clock: StageMs;
  /** Time spent in earlier jobs (the lookup that handed it on), in ms. */
  heldMs?: number;
  /** Deezer was asked (a shutdown can stop the batch before). */
  askedDeezer?: boolean;
  /** ReccoBeats answered for it in this job (a tempo, or that it knows none). */
  reccoBeatsAnswered?: boolean;
  /** GetSongBPM was asked in this job (or, for a check put off to the second look, in the one before). */
  askedGetSongBpm?: boolean;
  /** Only the audio could answer it, and an estimate alone is never placed: heard in the second look. */
  toSecondLook?: boolean;
  /** The preview could not be heard for a passing reason: when it may be asked again (set by fromAudio). */
  audioWaitsUntil?: Date;
  /** Tries at hearing the preview that failed for a passing reason, in this job and those before. */
  audioFailures?: number;
}

/**
 * A track the sources did not settle, as `resolveTempos` hands it on to be checked elsewhere (GetSongBPM,
 * the audio): what it learnt so far, and where its time went.
 */
export interface PendingCheck {
  track: TrackInput;
  answers: TempoAlternative[];
  notes: string[];
  transient: boolean;
  preview?: string;
  bySearch?: boolean;
  isrc?: string;
  /** Its time so far (lookup-timings.ts): in ms, and by stage. */
  heldMs: number;
  clock: StageMs;
  /** Tries at hearing its preview that failed for a passing reason. */
  audioFailures?: number;
  /** GetSongBPM was asked already (a check put off to the second look): not asked again. */
  askedGetSongBpm?: boolean;
}

const pendingOf = (w: Work, held: number): PendingCheck => ({
  track: w.track,
  answers: w.answers,
  // A check deferred again and again says the same thing each time: once, and the last few.
  notes: [...new Set(w.notes)].slice(-20),
  transient: w.transient,
  ...(w.preview ? { preview: w.preview } : {}),
  ...(w.bySearch ? { bySearch: true } : {}),
  ...(w.isrc ? { isrc: w.isrc } : {}),
  ...(w.audioFailures ? { audioFailures: w.audioFailures } : {}),
  heldMs: Math.round((w.heldMs ?? 0) + held),
  clock: {
    ms: Object.fromEntries(Object.entries(w.clock.ms).map(([k, v]) => [k, Math.round(v)])),
    n: w.clock.n,
  },
});

const workOf = (p: PendingCheck): Work => ({
  key: tempoKey(p.track),
  track: p.track,
  answers: p.answers,
  notes: p.notes,
  transient: p.transient,
  ...(p.preview ? { preview: p.preview } : {}),
  ...(p.bySearch ? { bySearch: true } : {}),
  ...(p.isrc ? { isrc: p.isrc } : {}),
  ...(p.audioFailures ? { audioFailures: p.audioFailures } : {}),
  ...(p.askedGetSongBpm ? { askedGetSongBpm: true } : {}),
  heldMs: p.heldMs,
  clock: { ms: { ...p.clock.ms }, n: { ...p.clock.n } },
});

async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const run = async () => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
}

export function createTempoService(deps: TempoServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const concurrency = deps.concurrency ?? 4;
  const backgroundCall = {
    waitMs: deps.backgroundWaitMs ?? BACKGROUND_WAIT_MS,
    retryMs: BACKGROUND_RETRY_MS,
  };

  /** Applies a non-ok outcome to a track's notes; returns true when the source answered "not known". */
  function note(w: Work, o: Exclude<Outcome<unknown>, { kind: 'ok' }>): void {
    w.notes.push(o.reason);
    if (o.kind === 'failed') w.transient = true;
    if (o.kind === 'deferred' && (!w.deferredUntil || o.retryAt < w.deferredUntil))
      w.deferredUntil = o.retryAt;
  }

  const add = (w: Work, source: Exclude<TempoSource, 'estimator'>, bpm: number, meter?: Meter) => {
    if (!(bpm > 0 && bpm < 400)) return;
    w.answers.push({
      bpm: Math.round(bpm * 100) / 100,
      source,
      confidence: SOURCE_CONFIDENCE[source],
      ...(meter ? { meter } : {}),
    });
  };

  async function fromSpotify(items: Work[], audioFeatures: AudioFeatures | undefined): Promise<void> {
    if (!audioFeatures || items.length === 0) return;
    const start = performance.now();
    try {
      const r = await audioFeatures(items.map((w) => w.track.spotifyId)).finally(() => {
        for (const w of items) addTime('http:spotify', performance.now() - start, w.clock);
      });
      if (r === 'unavailable') return;
      for (const w of items) {
        const known = r.get(w.track.spotifyId);
        if (known !== undefined) add(w, 'spotify', known.bpm, known.meter);
      }
    } catch (err) {
      // The Spotify client defers on its budget; the other sources still run.
      for (const w of items) w.notes.push(`spotify: ${(err as Error).message}`);
    }
  }

  async function fromReccoBeats(items: Work[]): Promise<void> {
    for (let i = 0; i < items.length; i += RECCOBEATS_BATCH) {
      const chunk = items.slice(i, i + RECCOBEATS_BATCH);
      // One call for the chunk: each of its tracks waited for all of it.
      const shared = newClock();
      const r = await timedWith(shared, () => deps.reccobeats.tempos(chunk.map((w) => w.track.spotifyId)));
      for (const w of chunk) addClock(w.clock, shared);
      for (const w of chunk) {
        if (r.kind !== 'ok') note(w, r);
        else {
          w.reccoBeatsAnswered = true;
          const known = r.value.get(w.track.spotifyId);
          if (known?.isrc && !w.track.isrc) w.isrc = known.isrc;
          if (typeof known?.bpm === 'number') add(w, 'reccobeats', known.bpm, known.meter);
          else w.notes.push(known ? 'reccobeats: tempo not known' : 'reccobeats: not known');
        }
      }
    }
  }

  /** Deezer by ISRC, else by search; keeps the preview of an accepted match. */
  async function fromDeezer(w: Work, call?: SlotWait): Promise<void> {
    const t = w.track;
    let match: DeezerTrack | undefined;
    // By ISRC (the track's, else ReccoBeats'): the same recording, in one request instead of two.
    const isrc = t.isrc ?? w.isrc;
    if (isrc) {
      const r = await deps.deezer.byIsrc(isrc, call);
      if (r.kind === 'ok') {
        const refused = refusedVersion(t.title, t.durationMs, r.value);
        if (refused) w.notes.push(`deezer: ISRC match refused (${refused})`);
        else match = r.value;
      } else {
        note(w, r);
        if (r.kind === 'deferred') return;
      }
    }
    if (!match) {
      const artist = primaryArtist(t.artists);
      const s = await deps.deezer.search(artist, cleanTitle(t.title), call);
      if (s.kind !== 'ok') return note(w, s);
      const hit = pickSearchHit(s.value, { title: t.title, artist, durationMs: t.durationMs });
      if (!hit) {
        w.notes.push(`deezer: no matching search result (${s.value.length} hits)`);
        return;
      }
      const full = await deps.deezer.byId(hit.id, call);
      if (full.kind !== 'ok') return note(w, full);
      match = full.value;
      // Found by name: the same recording only when its title and length say so as surely as an ISRC
      // would; otherwise perhaps another song or version, whose own bpm and preview would agree.
      if (sameRecordingByName(t.title, t.durationMs, match))
        w.notes.push('deezer: found by name, the same title and length');
      else w.bySearch = true;
    }
    if (match.preview) w.preview = match.preview;
    if (match.bpm && match.bpm > 0) add(w, 'deezer', match.bpm);
    else w.notes.push('deezer: bpm unknown');
  }

  /**
   * GetSongBPM by artist and title. `needed`: the track has no other way to be checked; a refusal defers
   * it. Otherwise asked only while its pace has room, and a refusal or failure leaves the track as it was
   * (not deferred, not retried): a `tie-breaker` (a running tempo the audio did not confirm, which nothing
   * else can place) may wait for a slot as a needed call does; a `spare` call (a second meter label, which
   * the audio gives anyway) takes only a slot free at once, so tie-breakers, reserving ahead, come first.
   */
  async function fromGetSongBpm(
    w: Work,
    use: 'needed' | 'tie-breaker' | 'spare' = 'needed',
    wait: SlotWait = {},
    /** What a tie-breaker is for, in the lookup timings: an unchecked tempo, or an unsure meter. */
    about?: 'tempo' | 'meter',
  ): Promise<void> {
    if (!deps.getsongbpm) return;
    const spare = use !== 'needed';
    const artist = primaryArtist(w.track.artists);
    const started = performance.now();
    const r = await deps.getsongbpm.search(
      artist,
      cleanTitle(w.track.title),
      use === 'spare' ? { maxWaitMs: 0 } : wait,
    );
    // What GetSongBPM's pace goes to, and what it refuses (lookup timings: `getsongbpm:<use>[-refused]`).
    const stage = `getsongbpm:${use}${about ? `-${about}` : ''}${r.kind === 'deferred' ? '-refused' : ''}`;
    addTime(stage, performance.now() - started, w.clock);
    // Refused by its pace: not asked (a tie-breaker after the audio may still ask).
    if (r.kind === 'deferred' && spare) return;
    w.askedGetSongBpm = true;
    if (r.kind === 'failed' && spare) return void w.notes.push(r.reason);
    if (r.kind !== 'ok') return note(w, r);
    // Text match only: several songs of that name by that artist with unrelated tempos is no answer.
    const hits = r.value.filter(
      (x) => sameName(x.artist, artist) && sameName(cleanTitle(x.title), cleanTitle(w.track.title)),
    );
    const first = hits[0];
    if (!first) w.notes.push('getsongbpm: no result');
    else if (hits.some((x) => !octaveRelated(x.tempo, first.tempo)))
      w.notes.push(`getsongbpm: ambiguous (${hits.length} songs)`);
    else add(w, 'getsongbpm', first.tempo, first.meter);
  }

  async function fromAudio(w: Work, stopping: AbortSignal | undefined, wait: SlotWait = {}): Promise<void> {
    if (!deps.estimatePreview) return;
    if (!w.preview) {
      w.notes.push('no preview to estimate from');
      return;
    }
    const r = await deps.previews.download(w.preview, wait);
    // A shutdown ended the wait for the slot: that says nothing about the preview.
    if (r.kind === 'deferred' && stopping?.aborted) {
      w.cutShort = true;
      return;
    }
    if (r.kind === 'deferred') w.audioWaitsUntil = r.retryAt;
    if (r.kind === 'failed') {
      w.audioFailures = (w.audioFailures ?? 0) + 1;
      w.audioWaitsUntil = new Date(now().getTime() + AUDIO_RETRY_MS * w.audioFailures);
    }
    if (r.kind !== 'ok') return note(w, r);
    try {
      const start = performance.now();
      const estimate = await deps.estimatePreview(r.value);
      // Waiting for a thread of the pool, the CPU on it, and the rest on it (waiting for a core).
      const spent = performance.now() - start;
      const run = Math.min(spent, estimate.runMs ?? spent);
      const cpu = Math.min(run, estimate.cpuMs ?? run);
      addTime('estimator:wait', spent - run);
      addTime('estimator:cpu', cpu);
      addTime('estimator:off-cpu', run - cpu);
      delete estimate.runMs;
      delete estimate.cpuMs;
      w.estimate = w.bySearch ? { ...estimate, previewBySearch: true } : estimate;
    } catch (err) {
      // A shutdown ends the estimator's threads: that says nothing about the preview.
      if (stopping?.aborted) w.cutShort = true;
      else w.notes.push(`estimator: failed on the preview (${(err as Error).message})`);
    }
  }

  function answerFromCache(c: CachedTempo): TempoAnswer {
    return {
      status: c.bpm === null ? 'unknown' : 'found',
      bpm: c.bpm,
      source: c.source as TempoSource | null,
      confidence: c.confidence,
      alternatives: c.alternatives,
      meter: c.meter,
      meterConfidence: c.meterConfidence,
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.retryAt ? { retryAt: c.retryAt } : {}),
      cached: true,
    };
  }

  interface BatchOptions {
    /**
     * Called each time a group of tracks is decided and cached, before the rest of the batch is: a
     * library's tempos arrive as they are checked.
     */
    onEarlyAnswers?: () => Promise<unknown>;
    stopping?: AbortSignal;
    /** Summed into: where the time of each track decided and cached went (lookup-timings.ts). */
    timings?: LookupTimings;
  }

  /**
   * Deciding and caching a batch's tracks as they are done (in groups when the caller is told early,
   * one save at a time): `started` is when the batch's work began (performance.now()).
   */
  function batchOf(opts: BatchOptions, started: number, carried = false) {
    const answers = new Map<string, TempoAnswer>();

    /** Decides and caches these tracks (a deferred one is not cached). */
    async function conclude(ws: Work[]): Promise<void> {
      const rows: TempoRow[] = [];
      const done = now();
      for (const w of ws) {
        const { checked, ...tempo } = decide(w.answers, w.estimate);
        const m = decideMeter(w.answers, w.estimate?.meter);
        const d = { ...tempo, meter: m.meter, meterConfidence: m.confidence };
        const waitsForAudio = meterWaitsForAudio(w, d, carried);
        const deferredUntil = waitsForAudio ? w.audioWaitsUntil : w.deferredUntil;
        let answer: TempoAnswer;
        if (d.bpm !== null && (checked || !w.deferredUntil) && !waitsForAudio) {
          answer = { status: 'found', ...d, cached: false };
          if (d.reason === undefined) delete answer.reason;
          // An unchecked tempo whose check failed for a passing reason is looked up again later, as is a
          // running tempo placed on one meter label after its preview failed AUDIO_TRIES times.
          const gaveUpOnAudio = !w.estimate && (w.audioFailures ?? 0) >= AUDIO_TRIES;
          if ((!checked || gaveUpOnAudio) && w.transient)
            answer.retryAt = new Date(done.getTime() + TRANSIENT_RETRY_MS);
        } else if (deferredUntil) {
          // Nothing, or only something unchecked, yet (or a running tempo's meter the audio must hear):
          // asked again when the service allows.
          answer = {
            ...d,
            status: 'deferred',
            reason: [...w.notes, d.reason].filter(Boolean).join('; '),
            retryAt: deferredUntil,
            cached: false,
          };
        } else {
          const wait = w.transient ? TRANSIENT_RETRY_MS : deps.settings.retryUnknownDays * 86_400_000;
          const reason = [...w.notes, d.reason].join('; ');
          answer = {
            ...d,
            status: 'unknown',
            reason,
            retryAt: new Date(done.getTime() + wait),
            cached: false,
          };
        }
        answers.set(w.key, answer);
        if (answer.status !== 'deferred') {
          rows.push({
            key: w.key,
            isrc: w.track.isrc ?? null,
            spotifyId: w.track.spotifyId,
            bpm: answer.bpm,
            source: answer.source,
            confidence: answer.confidence,
            alternatives: answer.alternatives,
            meter: answer.meter,
            meterConfidence: answer.meterConfidence,
            reason: answer.reason ?? null,
            retryAt: answer.retryAt ?? null,
            resolvedAt: done,
          });
        }
      }
      const saving = performance.now();
      await deps.repo.save(rows);
      const saved = performance.now();
      const timings = opts.timings;
      if (!timings) return;
      for (const w of ws) {
        if (answers.get(w.key)?.status === 'deferred') continue;
        addTime('db:save', saved - saving, w.clock);
        timings.tracks++;
        timings.totalMs += (w.heldMs ?? 0) + saved - started;
        addClock(timings, w.clock);
      }
    }

    const ready: Work[] = [];
    let saved: Promise<void> = Promise.resolve();
    /** Decides and caches the tracks done so far (in order, one save at a time); tells the caller. */
    const flush = (tell: boolean) => {
      const ws = ready.splice(0);
      if (ws.length > 0)
        saved = saved.then(async () => {
          await conclude(ws);
          if (tell) await opts.onEarlyAnswers?.();
        });
      return saved;
    };
    const done = async (w: Work) => {
      ready.push(w);
      if (opts.onEarlyAnswers && ready.length >= EARLY_GROUP) await flush(true);
    };
    return { answers, done, flush };
  }

  /**
   * Whether a track needs no more checks: its tempo is checked and, where a running playlist could take
   * it, its meter is sure from the labels alone (two independent ones agreeing). A lone 4/4 label is
   * not (a waltz is labelled 4/4 that often), so the audio is asked; a tempo no running target folds
   * into does not pay for it.
   */
  function settled(w: Work): boolean {
    const d = decide(w.answers);
    if (!d.checked) return false;
    if (d.bpm === null || !inRunningBand(d.bpm)) return true;
    return decideMeter(w.answers).confidence >= METER_SETTLED;
  }

  /**
   * A checked running tempo whose meter one label leaves unsure, whose preview the audio could not hear
   * for a passing reason (it must wait, or failed fewer than AUDIO_TRIES times): it waits for the audio
   * rather than be placed on the label (AUDIO_RETRY_MS). `carried`: its failures go with it to the next try.
   */
  function meterWaitsForAudio(
    w: Work,
    d: { bpm: number | null; meterConfidence: number },
    carried: boolean,
  ): boolean {
    if (w.estimate || !w.audioWaitsUntil || d.bpm === null || !inRunningBand(d.bpm)) return false;
    // Failures are counted only where the count goes with the check (tempo-audio jobs), else each
    // lookup again would start from none.
    if (!carried && (w.audioFailures ?? 0) > 0) return false;
    if (d.meterConfidence >= METER_SETTLED || (w.audioFailures ?? 0) >= AUDIO_TRIES) return false;
    return decide(w.answers).checked;
  }

  /** Its tempo is checked and could be a running one; only its meter is unsure. */
  function onlyMeterUnsure(w: Work): boolean {
    const d = decide(w.answers);
    return d.checked && d.bpm !== null && inRunningBand(d.bpm) && !settled(w);
  }

  /**
   * After the audio: an answer in the running band, still unchecked or its meter unsure. The audio's own
   * answer counts too: a clear running tempo against a source that says something else (a wrong entry,
   * not 3:2) has only a third analysis to settle it.
   */
  function unconfirmedRunning(w: Work): 'tempo' | 'meter' | null {
    const heard = w.estimate && w.estimate.confidence >= MIN_ESTIMATE_CONFIDENCE ? w.estimate.bpm : null;
    const running = w.answers.some((a) => inRunningBand(a.bpm)) || (heard != null && inRunningBand(heard));
    if (!running) return null;
    if (!decide(w.answers, w.estimate).checked) return 'tempo';
    return decideMeter(w.answers, w.estimate?.meter).confidence < METER_SETTLED ? 'meter' : null;
  }

  /** The checks after Deezer, for tracks Deezer did not settle: GetSongBPM where it can help, the audio. */
  async function checkAfterDeezer(
    work: Work[],
    batch: ReturnType<typeof batchOf>,
    stopping: AbortSignal | undefined,
    slotWaitMs?: number,
    audioAloneLater = false,
    background = false,
  ): Promise<void> {
    const wait: SlotWait = {
      ...(slotWaitMs !== undefined ? { maxWaitMs: slotWaitMs } : {}),
      ...(stopping ? { signal: stopping } : {}),
    };
    // Background checks take only the GetSongBPM slots the foreground leaves (its pace, 0.78 a second, is
    // what a storm's first-50 checks waited for most: bench/crowd); once one is deferred so, the others
    // that need GetSongBPM are deferred with it, unasked and unheard (their audio comes with the retry).
    const gsbWait: SlotWait = background ? { ...wait, background: backgroundCall } : wait;
    let gsbYielded: Date | undefined;
    const gsbDeferred = (w: Work) => {
      if (!background || !w.deferredUntil) return false;
      gsbYielded ??= w.deferredUntil;
      return true;
    };
    await eachLimited(work, concurrency, (w) =>
      timedWith(w.clock, async () => {
        if (stopping?.aborted) return;
        // GetSongBPM (a text match) where nothing answered, or for a lone answer the audio cannot check (no
        // preview, or only Deezer's answer for the very track whose preview the audio would hear).
        const onlyItsOwnPreview = w.bySearch && w.answers.every((a) => a.source === 'deezer');
        if (!w.askedGetSongBpm && (w.answers.length === 0 || !w.preview || onlyItsOwnPreview)) {
          if (gsbYielded)
            note(w, { kind: 'deferred', retryAt: gsbYielded, reason: 'getsongbpm: deferred with its batch' });
          else await fromGetSongBpm(w, 'needed', gsbWait);
          if (gsbDeferred(w)) return void (await batch.done(w));
        }
        // A running tempo already checked whose meter one label leaves unsure: GetSongBPM's time_sig is a
        // second, independent label, and two agreeing settle it without the preview and the estimator
        // (the slowest check, and the one a crowd waits for). Only while its pace has room.
        else if (onlyMeterUnsure(w)) await fromGetSongBpm(w, 'spare');
        // Nobody knows it: the audio alone could answer, and an estimate alone is never placed (nothing is
        // left to confirm it), so its preview waits for the second look's turn (`audioAloneLater`).
        if (audioAloneLater && w.answers.length === 0 && w.preview && !w.deferredUntil) {
          w.toSecondLook = true;
          return;
        }
        // The audio checks or settles whatever is not yet checked (and answers where nobody knows).
        if (!settled(w)) await fromAudio(w, stopping, wait);
        if (w.cutShort) return;
        // A running tempo the audio did not confirm (a lone answer, sources disagreeing), or whose meter it
        // did not make out (one 4/4 label and no clear bars: most waltzes and 6/8s placed so far):
        // GetSongBPM as a tie-breaker, a third analysis, while its pace has room (ahead of the spare labels).
        const unconfirmed = w.askedGetSongBpm ? null : unconfirmedRunning(w);
        if (unconfirmed)
          // (In the background, only a slot free at once: a tie-breaker refused is simply not asked.)
          await fromGetSongBpm(w, 'tie-breaker', background ? { maxWaitMs: 0 } : {}, unconfirmed);
        if (!w.cutShort) await batch.done(w);
      }),
    );
  }

  /**
   * Tempo for each track (by Spotify id). Answers from the shared cache when it can, otherwise asks
   * the sources in order and caches what it learns, including "unknown" with a retry time. Never
   * throws for anything an outside service does. `audioFeatures`: Spotify's, for the user whose library
   * the tracks come from (tempo-lookup jobs); without it Spotify is not asked. Once `stopping` is aborted
   * (a shutdown) no further track is started: the tracks not decided by then have no answer in the map.
   */
  async function resolveTempos(
    tracks: TrackInput[],
    opts: BatchOptions & {
      audioFeatures?: AudioFeatures;
      /**
       * When given, the tracks that Spotify, ReccoBeats and Deezer did not settle are handed to it, to be
       * checked elsewhere (GetSongBPM, the audio: `checkTempos`, in tempo-audio jobs), instead of waiting
       * here; they have no answer in the map. Without it they are checked here.
       */
      checkLater?: (pending: PendingCheck[], o?: { secondLook?: boolean }) => Promise<void>;
      /**
       * When given, tracks whose first answers (Spotify's, ReccoBeats') are all tempos no playlist takes
       * (`wanted` is false for each) are not checked now: handed to `later` (a lookup again at the lowest
       * priority), with no answer in the map, so that Deezer's pace goes first to the tracks that may be
       * placed. Their answer is usually right (a 3:2 or wrong value hides a running tempo in about 4 %),
       * so the check waits rather than being skipped.
       */
      secondLook?: { wanted: (bpm: number) => boolean; later: (tracks: FirstAnswers[]) => Promise<void> };
      /** What the first sources said of some tracks (by Spotify id; a second look): they are not asked again. */
      known?: ReadonlyMap<string, Omit<FirstAnswers, 'track'>>;
      /**
       * When given, tracks no first source has a tempo for (ReccoBeats answered, not with one) are not
       * checked now: handed to it (a lookup again at a lower priority), with no answer in the map. Such a
       * track costs Deezer twice when it has no ISRC (a search, then the track), needs the audio and
       * GetSongBPM, and fits a playlist about a third as often as one whose first answer a playlist takes.
       */
      unknownLater?: (tracks: FirstAnswers[]) => Promise<void>;
      /**
       * Background work (`isBackground`: catalogs of runners past their 50, second looks): its Deezer
       * calls take only slots free at once
       * (`CallOptions.background`), and once one is deferred so, the rest of the batch is deferred with it
       * rather than each waiting its turn.
       */
      background?: boolean;
      /**
       * With `background`: the tracks whose Deezer call gave way (or was deferred with its batch), with
       * what the first sources said, to be looked up again at `retryAt` without asking them again; they
       * have no answer in the map. Without it they are deferred as any track (and ReccoBeats is asked again).
       */
      gaveWay?: (tracks: FirstAnswers[], retryAt: Date) => Promise<void>;
    } = {},
  ): Promise<Map<string, TempoAnswer>> {
    const stopped = () => opts.stopping?.aborted === true;
    const t0 = now();
    const started = performance.now();
    const byKey = new Map<string, TrackInput>();
    for (const t of tracks) if (!byKey.has(tempoKey(t))) byKey.set(tempoKey(t), t);
    const cached = await deps.repo.getByKeys([...byKey.keys()]);
    const cacheRead = performance.now() - started;
    const batch = batchOf(opts, started);
    const { answers } = batch;
    const work: Work[] = [];
    for (const [key, track] of byKey) {
      const c = cached.get(key);
      // A found tempo is kept for good, unless it could not be checked for a passing reason (retryAt).
      if (c && (c.retryAt === null ? c.bpm !== null : c.retryAt > t0)) answers.set(key, answerFromCache(c));
      else work.push({ key, track, answers: [], notes: [], transient: false, clock: newClock() });
    }
    for (const w of work) addTime('db:cache', cacheRead, w.clock);

    // Every answer is checked before it is trusted: a lone source's 3:2 or wrong value looks like any
    // other. The checks cost no Spotify call: Deezer (by ISRC; its preview), then the audio.
    const fresh: Work[] = [];
    for (const w of work) {
      const k = opts.known?.get(w.track.spotifyId);
      if (!k) fresh.push(w);
      else {
        w.answers.push(...k.answers);
        if (k.isrc && !w.track.isrc) w.isrc = k.isrc;
      }
    }
    if (!stopped()) await fromSpotify(fresh, opts.audioFeatures);
    // Batched and cheap (2 calls per 40 tracks): a second opinion even where Spotify answered.
    if (!stopped()) await fromReccoBeats(fresh);

    // A first answer no playlist takes: its check (Deezer, perhaps the audio) waits for a second look.
    const second = opts.secondLook;
    const unwanted = (w: Work) =>
      second !== undefined && w.answers.length > 0 && !w.answers.some((a) => second.wanted(a.bpm));
    if (second && !stopped()) {
      const later = work.filter(unwanted);
      if (later.length > 0) {
        await second.later(
          later.map((w) => ({ track: w.track, answers: w.answers, ...(w.isrc ? { isrc: w.isrc } : {}) })),
        );
        work.splice(0, work.length, ...work.filter((w) => !unwanted(w)));
      }
    }
    // Nothing known of it yet: its checks wait for the tracks whose first answer a playlist takes.
    const unknownLater = opts.unknownLater;
    const unknown = (w: Work) => w.reccoBeatsAnswered === true && w.answers.length === 0;
    if (unknownLater && !stopped()) {
      const later = work.filter(unknown);
      if (later.length > 0) {
        await unknownLater(
          later.map((w) => ({ track: w.track, answers: [], ...(w.isrc ? { isrc: w.isrc } : {}) })),
        );
        work.splice(0, work.length, ...work.filter((w) => !unknown(w)));
      }
    }

    // Deezer for every track first (a second source, and the preview the audio needs): network-paced and
    // quick, so what two sources agree on is placed before the slower audio runs for the rest. Deezer's
    // pace bounds how soon a new library's first playlists fill: tracks whose first answer is a running
    // tempo go first (a stable order otherwise), so its checks turn into placed tracks sooner.
    const runningFirst = (w: Work) => (w.answers.some((a) => inRunningBand(a.bpm)) ? 0 : 1);
    work.sort((x, y) => runningFirst(x) - runningFirst(y));
    // What the audio must check is handed on in groups as Deezer is done with it, not when the whole
    // batch is: the running tempos, first in the order, reach their checks while Deezer still reads the
    // rest (with six batches sharing Deezer's pace, a batch's last track comes tens of seconds later).
    const handOn: Work[] = [];
    const handed = new Set<Work>();
    const hand = async () => {
      const group = handOn.splice(0);
      if (group.length === 0 || !opts.checkLater) return;
      for (const w of group) handed.add(w);
      // The same after Deezer: a check of tempos no playlist takes (Deezer's alone, or two that disagree)
      // is heard in the second look's turn, so the previews go first to what may be placed.
      const now = group.filter((w) => !unwanted(w));
      const last = group.filter(unwanted);
      const pending = (ws: Work[]) => ws.map((w) => pendingOf(w, performance.now() - started));
      if (now.length > 0) await opts.checkLater(pending(now));
      if (last.length > 0) await opts.checkLater(pending(last), { secondLook: true });
    };
    // A shutdown stops the batch between tracks: a track not yet started stays undecided (not cached).
    const call: SlotWait | undefined = opts.background ? { background: backgroundCall } : undefined;
    let yielded: { kind: 'deferred'; retryAt: Date; reason: string } | undefined;
    const gaveWay = new Set<Work>();
    await eachLimited(work, concurrency, async (w) => {
      if (stopped()) return;
      // Background work the foreground keeps Deezer's pace busy for: the batch's other tracks wait with
      // the first one deferred, without asking (each would wait its own BACKGROUND_WAIT_MS).
      if (yielded) note(w, yielded);
      else await timedWith(w.clock, () => fromDeezer(w, call));
      if (call && !yielded && w.deferredUntil)
        yielded = {
          kind: 'deferred',
          retryAt: w.deferredUntil,
          reason: w.notes.at(-1) ?? 'deezer: deferred',
        };
      w.askedDeezer = true;
      // What ReccoBeats said is kept for the next try (asking it again for a whole batch each time the
      // background gives way spent its pace, 1.7 calls a second, that the first-50 lookups wait for).
      const firstAsked = w.reccoBeatsAnswered === true || opts.known?.has(w.track.spotifyId) === true;
      if (call && opts.gaveWay && w.deferredUntil && firstAsked) return void gaveWay.add(w);
      if (settled(w)) await batch.done(w);
      else if (opts.checkLater && !w.deferredUntil) {
        handOn.push(w);
        if (handOn.length >= HAND_ON_GROUP) await hand();
      }
    });
    if (gaveWay.size > 0 && opts.gaveWay) {
      const again = [...gaveWay];
      const retryAt = new Date(Math.max(...again.map((w) => w.deferredUntil?.getTime() ?? 0)));
      await opts.gaveWay(
        again.map((w) => ({ track: w.track, answers: w.answers, ...(w.isrc ? { isrc: w.isrc } : {}) })),
        retryAt,
      );
    }
    const unsettled = work.filter((w) => w.askedDeezer && !settled(w) && !handed.has(w) && !gaveWay.has(w));
    if (opts.checkLater) {
      // A track a service asked to wait for is looked up again whole, when it allows (deferred).
      for (const w of unsettled) if (w.deferredUntil) await batch.done(w);
      await hand();
    } else await checkAfterDeezer(unsettled, batch, opts.stopping);
    await batch.flush(false);
    const out = new Map<string, TempoAnswer>();
    for (const t of tracks) {
      const a = answers.get(tempoKey(t));
      if (a) out.set(t.spotifyId, a);
    }
    return out;
  }

  /**
   * The checks after Deezer (GetSongBPM, the audio) for tracks `resolveTempos` handed on, decided and
   * cached as they are done. Answers by Spotify id; the tracks to check again (a service asked to wait:
   * `retryAt`; cut short by a shutdown: none) are in `later`, as they are now.
   */
  async function checkTempos(
    pending: PendingCheck[],
    opts: BatchOptions & {
      /**
       * A first look: a track no source knows (after GetSongBPM) is not heard now but handed back with
       * `secondLook` (its preview for the second look's turn).
       */
      audioAloneLater?: boolean;
      /** Background checks (`isBackground`): GetSongBPM only where the foreground leaves room. */
      background?: boolean;
    } = {},
  ): Promise<{
    answers: Map<string, TempoAnswer>;
    later: Array<{ check: PendingCheck; retryAt?: Date; secondLook?: true }>;
  }> {
    const started = performance.now();
    const batch = batchOf(opts, started, true);
    // A track found meanwhile is not checked again: a runner's own song queued once in another runner's
    // artist catalog and again at their higher priority (createTempoQueueing) reaches the audio twice.
    const cached = await deps.repo.getByKeys(pending.map((p) => tempoKey(p.track)));
    const found = (key: string) => {
      const c = cached.get(key);
      return c !== undefined && c.retryAt === null && c.bpm !== null;
    };
    const work = pending.map(workOf).filter((w) => !found(w.key));
    await checkAfterDeezer(
      work,
      batch,
      opts.stopping,
      AUDIO_JOB_SLOT_WAIT_MS,
      opts.audioAloneLater,
      opts.background,
    );
    await batch.flush(false);
    const answers = new Map<string, TempoAnswer>();
    const later: Array<{ check: PendingCheck; retryAt?: Date; secondLook?: true }> = [];
    const held = performance.now() - started;
    for (const p of pending) {
      const c = cached.get(tempoKey(p.track));
      if (c && found(tempoKey(p.track))) answers.set(p.track.spotifyId, answerFromCache(c));
    }
    for (const w of work) {
      const a = batch.answers.get(w.key);
      if (a && a.status !== 'deferred') answers.set(w.track.spotifyId, a);
      else if (w.toSecondLook)
        later.push({ check: { ...pendingOf(w, held), askedGetSongBpm: true }, secondLook: true });
      else later.push({ check: pendingOf(w, held), ...(a?.retryAt ? { retryAt: a.retryAt } : {}) });
    }
    return { answers, later };
  }

  return {
    resolveTempos,
    checkTempos,
    /** Whether Deezer's pace has room now: no call is waiting for a slot (background work may start). */
    deezerHasRoom: () => deps.deezer.hasRoom(),
    /** Attributions the web app must show: GetSongBPM requires a visible link when its key is used. */
    credits: () => ({ getSongBpm: deps.getsongbpm !== undefined }),
  };
}

export type TempoService = ReturnType<typeof createTempoService>;
