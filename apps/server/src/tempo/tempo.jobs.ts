// Tempo lookups as pg-boss jobs: a library's new tracks are queued in batches, each batch is resolved
// by one job, and tracks a service asked us to wait for are queued again with `startAfter`. A job
// carries the `userId` whose library the tracks come from (so disconnecting cancels it): that user's
// Spotify connection, if live, is asked for audio-features, and their target playlists are told when
// tempos were found. What Spotify, ReccoBeats and Deezer do not settle goes on to a tempo-audio job
// (GetSongBPM, the preview and the estimator), in a queue of its own.
import { Meter } from '@pacebeat/contract';
import { z } from 'zod';
import type { LookupTimings } from './lookup-timings.ts';
import type { TempoAlternative } from '../db/tempo.schema.ts';
import {
  BACKGROUND_RETRY_MS,
  tempoKey,
  wantedTempo,
  type AudioFeatures,
  type FirstAnswers,
  type PendingCheck,
  type TempoService,
  type TrackInput,
  type WantedRange,
} from './tempo.service.ts';

/** Tracks per job: one ReccoBeats round trip per 40, Deezer paced across the batch. */
export const TEMPO_BATCH = 50;

export const TrackInputSchema = z
  .object({
    spotifyId: z.string().regex(/^[A-Za-z0-9]{1,64}$/),
    isrc: z.string().trim().min(1).max(32).nullable().optional(),
    artists: z.array(z.string().max(500)).max(50),
    title: z.string().max(1000),
    durationMs: z.number().int().min(0),
  })
  .strict();

/**
 * pg-boss priorities (higher runs first): the tracks a runner chose (Liked Songs, their playlists) are
 * looked up before the catalogs of their artists, and before the catalogs of every other user, so a new
 * runner's first playlists do not wait behind thousands of catalog tracks already queued. The first
 * Liked Songs pages of a library just connected (read at the interactive priority) come before every
 * other runner's own tracks too: a runner who just connected waits for their first playlists. And the
 * very first page (50 songs, enough for a first link) before the next three pages of everyone who
 * connected a little earlier: in the browser tests, where runners connect every few seconds, a
 * newcomer's first audio checks waited up to 200 s behind the others' pages 2-4.
 * Between the runners' own tracks and the catalogs: the catalog tracks of a runner who has fewer than 50
 * songs placed (`firstCatalog`), where a small library's first 50 come from (bench:crowd: with a runner's
 * catalogs read first, their lookups queued behind every catalog track of the runners past their 50).
 * Of those, the tracks no first source has a tempo for come after the rest (`firstCatalogUnknown`, `run`):
 * found by name they cost Deezer twice, need the audio, and fit a third as often.
 * Last, below every catalog: the second look at catalog tracks whose first answer no playlist takes (`run`).
 * A runner's own tracks get their second look level with the catalogs (`secondLookPriority`).
 */
export const TEMPO_PRIORITY = {
  firstPage: 5,
  firstPages: 4,
  ownLibrary: 3,
  firstCatalog: 2,
  firstCatalogUnknown: 1,
  catalog: 0,
  secondLook: -1,
} as const;

/**
 * Background work: the catalogs of runners past their first 50 and every second look. Its lookups start
 * when Deezer's pace has room and its calls take only the outside paces' free slots (`BACKGROUND_WAIT_MS`).
 * A first-50 runner's tracks nobody knows (`firstCatalogUnknown`) are not: made background too, in
 * bench:crowd, the runners whose 50 needed them waited for the storm's end (p50 to 50 placed 100-161 s →
 * 145-196 s in three runs).
 */
export const isBackground = (priority: number | undefined): boolean =>
  // Every job the library queues carries its priority; one without (a test's, a hand-made one) is not
  // made to wait.
  priority !== undefined && priority <= TEMPO_PRIORITY.catalog;

/**
 * The priority of the second look at a track first looked up at `priority`: a catalog's, below every
 * catalog; a runner's own (Liked Songs, their playlists), level with the catalogs, so in the order queued
 * (pg-boss takes a priority's jobs oldest first): after every runner's own tracks, before the catalogs
 * queued after it. A pace a runner adds at a tempo no playlist took fills from the songs they chose
 * without waiting for every catalog (paces.spec's 60-220 pace got 3 songs in 180 s with them last).
 */
export const secondLookPriority = (priority: number | undefined): number =>
  (priority ?? TEMPO_PRIORITY.catalog) > TEMPO_PRIORITY.firstCatalog
    ? TEMPO_PRIORITY.catalog
    : TEMPO_PRIORITY.secondLook;

/** A source's answer, as a job's payload carries it. */
const AnswerSchema = z
  .object({
    bpm: z.number(),
    source: z.string().max(32),
    confidence: z.number(),
    meter: Meter.optional(),
  })
  .strict();

export const TempoLookupPayload = z
  .object({
    tracks: z.array(TrackInputSchema).min(1).max(TEMPO_BATCH),
    userId: z.uuid().optional(),
    /** Kept in the payload so that the deferred tracks' re-queue keeps it (registry's sendOptions). */
    priority: z.number().int().min(TEMPO_PRIORITY.secondLook).max(9).optional(),
    /** The second look at tracks whose first answer no playlist takes: every check is made now. */
    secondLook: z.literal(true).optional(),
    /** A second look: what the first sources said of each track (by Spotify id), not asked again. */
    known: z
      .record(
        z.string().regex(/^[A-Za-z0-9]{1,64}$/),
        z.object({ answers: z.array(AnswerSchema).max(10), isrc: z.string().max(32).optional() }).strict(),
      )
      .optional(),
  })
  .strict();

const Ms = z.record(z.string().max(64), z.number().min(0));
const PendingCheckSchema = z
  .object({
    track: TrackInputSchema,
    answers: z.array(AnswerSchema).max(10),
    notes: z.array(z.string().max(2000)).max(50),
    transient: z.boolean(),
    preview: z.string().max(2000).optional(),
    bySearch: z.boolean().optional(),
    isrc: z.string().max(32).optional(),
    heldMs: z.number().min(0),
    clock: z.object({ ms: Ms, n: Ms }).strict(),
    audioFailures: z.number().int().min(0).max(100).optional(),
    askedGetSongBpm: z.boolean().optional(),
  })
  .strict();

/**
 * The checks after Deezer (GetSongBPM, the audio on the preview) for tracks a tempo-lookup job handed on,
 * in a queue of their own: a lookup whose sources agree is never queued behind other lookups' previews.
 */
export const TempoAudioPayload = z
  .object({
    checks: z.array(PendingCheckSchema).min(1).max(TEMPO_BATCH),
    userId: z.uuid().optional(),
    priority: z.number().int().min(TEMPO_PRIORITY.secondLook).max(9).optional(),
    /** Checks of a second look (or handed to it): the audio alone is not handed on again. */
    secondLook: z.literal(true).optional(),
  })
  .strict();

/**
 * tempo-audio workers for one process at this preview pace (calls a second for all processes): each job
 * checks up to 4 tracks at a time, and a process keeps about 8 s of the pace in flight, from 1 worker up
 * to the 6 that 8 previews a second take. A check waits in line for its slot (AUDIO_JOB_SLOT_WAIT_MS),
 * and more workers at a slow pace only make the line longer, and a new runner's first checks, fetched
 * by priority, wait behind it.
 */
export const audioWorkers = (previewsPerSecond: number) =>
  Math.max(1, Math.min(6, Math.ceil(previewsPerSecond * 2)));

/** How long the wanted ranges (`wantedRanges`) are kept before they are read again. */
const WANTED_RANGES_MS = 60_000;
/**
 * The same, for a lookup of a runner's own tracks: a pace just added at a new tempo is seen within seconds
 * (its second looks already queued move up, second-look-promotion.ts), not after a minute of the runner's
 * songs sent to the second look for want of it. One read of the ranges per batch of 50 at most.
 */
const OWN_WANTED_RANGES_MS = 5_000;

/** How long a background lookup job waits for Deezer's pace to have room before it goes back on the queue. */
const ROOM_WAIT_MS = 5_000;

/** The priorities of a runner's catalog tracks while they are short of their first 50 songs. */
const FIRST_CATALOGS: ReadonlySet<number> = new Set([
  TEMPO_PRIORITY.firstCatalog,
  TEMPO_PRIORITY.firstCatalogUnknown,
]);
/** How long a runner's "still short of their first 50" is kept before it is read again. */
const FIRST_SONGS_MS = { short: 5_000, reached: 60_000 };

/** What the job needs from the queue: a way to send itself again later. */
export interface TempoLookupQueue {
  send(
    name: 'tempo-lookup',
    payload: z.infer<typeof TempoLookupPayload>,
    options?: { startAfter?: Date },
  ): Promise<string | null>;
}

/** The queue of the checks after Deezer (tempo-audio jobs). */
export interface TempoAudioQueue {
  send(
    name: 'tempo-audio',
    payload: z.infer<typeof TempoAudioPayload>,
    options?: { startAfter?: Date },
  ): Promise<string | null>;
}

export function createTempoLookups(deps: {
  tempo: Pick<TempoService, 'resolveTempos'> & Partial<Pick<TempoService, 'checkTempos' | 'deezerHasRoom'>>;
  queue: TempoLookupQueue;
  /** With it, a lookup hands the checks after Deezer to tempo-audio jobs; without, it runs them itself. */
  audioQueue?: TempoAudioQueue;
  /** A user's Spotify audio-features; undefined when they have no live connection. */
  audioFeaturesFor?: (userId: string) => Promise<AudioFeatures | undefined>;
  /**
   * Told when a job of a user's library found tempos (their target playlists can grow: playlist-sync):
   * at the job's end with the recordings found (`keys`: other runners' libraries may hold them too).
   */
  onTemposFound?: (userId: string, keys?: string[]) => Promise<unknown>;
  /**
   * The BPM ranges the installation's playlists and runs take. With it, a lookup checks the tracks whose
   * first answer one of them (or the running band) could take, and queues the rest for a second look.
   */
  wantedRanges?: () => Promise<WantedRange[]>;
  /** How long a background job waits for Deezer's pace to have room (default ROOM_WAIT_MS; tests). */
  roomWaitMs?: number;
  /**
   * Whether a runner still has fewer than their first 50 songs placed (the playlists module). With it, a
   * job queued at a first-50 priority (`FIRST_CATALOGS`) for a runner who has reached them goes back on
   * the queue as background work (`catalog`) instead of running before the runners still waiting.
   */
  firstSongs?: (userId: string) => Promise<boolean>;
}) {
  // A runner's catalog tracks are queued at the first-50 priority as they are read: an extended-quota
  // installation reads a whole catalog in a few calls, so most of a runner's jobs are still queued when
  // they reach 50, ahead of every later runner's (bench:crowd: 1,131 such jobs at the storm's end).
  const firstSongsSeen = new Map<string, { at: number; short: boolean }>();
  const reachedFirst50 = async (opts: { userId?: string; priority?: number }): Promise<boolean> => {
    if (!deps.firstSongs || !opts.userId || !FIRST_CATALOGS.has(opts.priority ?? NaN)) return false;
    const seen = firstSongsSeen.get(opts.userId);
    if (seen && Date.now() - seen.at < (seen.short ? FIRST_SONGS_MS.short : FIRST_SONGS_MS.reached))
      return !seen.short;
    const short = await deps.firstSongs(opts.userId);
    if (firstSongsSeen.size > 10_000) firstSongsSeen.clear();
    firstSongsSeen.set(opts.userId, { at: Date.now(), short });
    return !short;
  };
  // The ranges change when a runner edits a target or a run: read again at most once a minute (every
  // few seconds for a runner's own tracks). When they cannot be read, every track is checked now, as
  // without them.
  let wanted: { at: number; is: Promise<((bpm: number) => boolean) | undefined> } | undefined;
  const wantedNow = async (maxAgeMs: number) => {
    if (!deps.wantedRanges) return undefined;
    if (!wanted || Date.now() - wanted.at > maxAgeMs) {
      const current = {
        at: Date.now(),
        is: deps.wantedRanges().then(wantedTempo, () => {
          if (wanted === current) wanted = undefined;
          return undefined;
        }),
      };
      wanted = current;
    }
    return wanted.is;
  };
  /** Whether Deezer's pace has room, asked about once a second for up to ROOM_WAIT_MS. */
  const roomFor = async (stopping: AbortSignal | undefined): Promise<boolean> => {
    const hasRoom = deps.tempo.deezerHasRoom;
    if (!hasRoom) return true;
    const until = Date.now() + (deps.roomWaitMs ?? ROOM_WAIT_MS);
    for (;;) {
      if (await hasRoom()) return true;
      if (Date.now() >= until || stopping?.aborted) return false;
      await new Promise((r) => setTimeout(r, 500 + Math.random() * 1000));
    }
  };
  return {
    /** Queues lookups for tracks in batches (of `userId`'s library, when given); returns the number of jobs. */
    async enqueue(tracks: TrackInput[], opts: { userId?: string; priority?: number } = {}): Promise<number> {
      let jobs = 0;
      for (let i = 0; i < tracks.length; i += TEMPO_BATCH) {
        await deps.queue.send('tempo-lookup', { tracks: tracks.slice(i, i + TEMPO_BATCH), ...opts });
        jobs++;
      }
      return jobs;
    },

    /**
     * The job: resolve a batch; tracks a service deferred go back on the queue for when it allows. When
     * `stopping` is aborted (the process shuts down) the batch stops at its next track: what is decided is
     * kept, the rest goes back on the queue at once (the next process runs it; no retry is spent).
     * The output says where the decided tracks' time went (`timings`, lookup-timings.ts).
     */
    async run(
      tracks: TrackInput[],
      opts: {
        userId?: string;
        priority?: number;
        secondLook?: true;
        known?: Record<string, { answers: TempoAlternative[]; isrc?: string }>;
        stopping?: AbortSignal;
      } = {},
    ) {
      const { stopping, secondLook, known, ...payload } = opts;
      if (await reachedFirst50(opts)) {
        await deps.queue.send('tempo-lookup', {
          tracks,
          ...payload,
          priority: TEMPO_PRIORITY.catalog,
          ...(secondLook ? { secondLook } : {}),
          ...(known ? { known } : {}),
        });
        return { found: 0, unknown: 0, deferred: 0, toAudio: 0, background: tracks.length };
      }
      // Background work (`isBackground`: catalogs of runners past their 50, second looks) starts when
      // Deezer's pace has room: while the
      // foreground keeps it busy (a storm of new runners) the job goes back on the queue as it came, having
      // asked nobody anything, rather than spend a worker and the pace's slots on tracks that rarely fit.
      const background = isBackground(opts.priority);
      if (background && !(await roomFor(stopping))) {
        await deps.queue.send(
          'tempo-lookup',
          { tracks, ...payload, ...(secondLook ? { secondLook } : {}), ...(known ? { known } : {}) },
          { startAfter: new Date(Date.now() + BACKGROUND_RETRY_MS) },
        );
        return { found: 0, unknown: 0, deferred: 0, toAudio: 0, waitedForRoom: tracks.length };
      }
      const audioFeatures =
        opts.userId && deps.audioFeaturesFor ? await deps.audioFeaturesFor(opts.userId) : undefined;
      const found = opts.userId && deps.onTemposFound ? deps.onTemposFound : undefined;
      const timings: LookupTimings = { tracks: 0, totalMs: 0, ms: {}, n: {} };
      const handed = new Set<string>();
      const audioQueue = deps.audioQueue;
      const own = (opts.priority ?? TEMPO_PRIORITY.catalog) > TEMPO_PRIORITY.catalog;
      const wantedBpm = secondLook
        ? undefined
        : await wantedNow(own ? OWN_WANTED_RANGES_MS : WANTED_RANGES_MS);
      const second = { priority: secondLookPriority(opts.priority), secondLook: true as const };
      const lookedAgain = new Set<string>();
      let putOffUnknown = 0;
      let gaveWayCount = 0;
      /** Tracks put off to a lookup again (at `at`), with what the first sources said of them. */
      const putOff = async (
        again: FirstAnswers[],
        at: { priority?: number; secondLook?: true },
        startAfter?: Date,
      ) => {
        for (let i = 0; i < again.length; i += TEMPO_BATCH) {
          const part = again.slice(i, i + TEMPO_BATCH);
          await deps.queue.send(
            'tempo-lookup',
            {
              tracks: part.map((x) => x.track),
              ...(payload.userId ? { userId: payload.userId } : {}),
              ...at,
              known: Object.fromEntries(
                part.map((x) => [
                  x.track.spotifyId,
                  { answers: x.answers, ...(x.isrc ? { isrc: x.isrc } : {}) },
                ]),
              ),
            },
            ...(startAfter ? [{ startAfter }] : []),
          );
        }
        for (const x of again) lookedAgain.add(x.track.spotifyId);
      };
      const answers = await deps.tempo.resolveTempos(tracks, {
        timings,
        // What the sources did not settle is checked by tempo-audio jobs, not while this job holds a worker.
        ...(audioQueue
          ? {
              checkLater: async (pending: PendingCheck[], o: { secondLook?: boolean } = {}) => {
                for (let i = 0; i < pending.length; i += TEMPO_BATCH)
                  await audioQueue.send('tempo-audio', {
                    checks: pending.slice(i, i + TEMPO_BATCH),
                    ...payload,
                    ...(o.secondLook ? second : secondLook ? { secondLook } : {}),
                  });
                for (const p of pending) handed.add(p.track.spotifyId);
              },
            }
          : {}),
        // Deezer's pace (and the audio's) goes first to what a playlist may take; the rest comes last.
        ...(wantedBpm
          ? {
              secondLook: {
                wanted: wantedBpm,
                // With what the first sources said, so that they are not asked again.
                later: (again: FirstAnswers[]) => putOff(again, second),
              },
            }
          : {}),
        // A catalog track of a runner short of their first 50 that no first source knows waits for those
        // whose first answer a playlist takes: Deezer's pace then yields more placed songs a call.
        ...(opts.priority === TEMPO_PRIORITY.firstCatalog && !secondLook
          ? {
              unknownLater: async (again: FirstAnswers[]) => {
                await putOff(again, { priority: TEMPO_PRIORITY.firstCatalogUnknown });
                putOffUnknown += again.length;
              },
            }
          : {}),
        ...(known ? { known: new Map(Object.entries(known)) } : {}),
        ...(background
          ? {
              background,
              // Looked up again as this job was (its priority, its second look), with what ReccoBeats said.
              gaveWay: async (again: FirstAnswers[], retryAt: Date) => {
                await putOff(
                  again,
                  {
                    ...(payload.priority !== undefined ? { priority: payload.priority } : {}),
                    ...(secondLook ? { secondLook } : {}),
                  },
                  retryAt,
                );
                gaveWayCount += again.length;
              },
            }
          : {}),
        ...(audioFeatures ? { audioFeatures } : {}),
        // The playlists can grow with the tempos known at once, before the slower sources answer.
        ...(found ? { onEarlyAnswers: () => found(opts.userId!) } : {}),
        ...(stopping ? { stopping } : {}),
      });
      const counts = { found: 0, unknown: 0, deferred: 0 };
      const later: TrackInput[] = [];
      const undecided: TrackInput[] = [];
      const foundKeys: string[] = [];
      let startAfter = 0;
      for (const t of tracks) {
        const a = answers.get(t.spotifyId);
        if (!a) {
          if (!handed.has(t.spotifyId) && !lookedAgain.has(t.spotifyId)) undecided.push(t);
          continue;
        }
        counts[a.status]++;
        if (a.status === 'found') foundKeys.push(tempoKey(t));
        if (a.status === 'deferred') {
          later.push(t);
          startAfter = Math.max(startAfter, a.retryAt?.getTime() ?? 0);
        }
      }
      const again = { ...payload, ...(secondLook ? { secondLook } : {}) };
      if (later.length > 0)
        await deps.queue.send(
          'tempo-lookup',
          { tracks: later, ...again },
          { startAfter: new Date(startAfter) },
        );
      if (undecided.length > 0) await deps.queue.send('tempo-lookup', { tracks: undecided, ...again });
      if (opts.userId && counts.found > 0) await deps.onTemposFound?.(opts.userId, foundKeys);
      const out = {
        ...counts,
        toAudio: handed.size,
        ...(lookedAgain.size > putOffUnknown + gaveWayCount
          ? { secondLook: lookedAgain.size - putOffUnknown - gaveWayCount }
          : {}),
        ...(putOffUnknown > 0 ? { unknownLater: putOffUnknown } : {}),
        ...(gaveWayCount > 0 ? { gaveWay: gaveWayCount } : {}),
        timings: rounded(timings),
      };
      return undecided.length > 0 ? { ...out, handedBack: undecided.length } : out;
    },

    /**
     * The tempo-audio job: GetSongBPM and the audio for tracks a lookup handed on, each decided and cached
     * when done. Those a service asked to wait for go back on the queue for when it allows; those a
     * shutdown cut short, at once.
     */
    async runChecks(
      checks: PendingCheck[],
      opts: { userId?: string; priority?: number; secondLook?: true; stopping?: AbortSignal } = {},
    ) {
      const { stopping, ...payload } = opts;
      const audioQueue = deps.audioQueue;
      const checkTempos = deps.tempo.checkTempos;
      if (!audioQueue || !checkTempos) throw new Error('tempo-audio jobs need their queue and checkTempos');
      if (await reachedFirst50(opts)) {
        await audioQueue.send('tempo-audio', { checks, ...payload, priority: TEMPO_PRIORITY.catalog });
        return {
          found: 0,
          unknown: 0,
          deferred: 0,
          background: checks.length,
          timings: rounded({ tracks: 0, totalMs: 0, ms: {}, n: {} }),
        };
      }
      const found = opts.userId && deps.onTemposFound ? deps.onTemposFound : undefined;
      const timings: LookupTimings = { tracks: 0, totalMs: 0, ms: {}, n: {} };
      // With the second look on (wantedRanges), a first look leaves a track no source knows to it: the
      // audio alone is never placed, so its preview goes to what may be.
      const firstLook = deps.wantedRanges !== undefined && !opts.secondLook;
      const background = isBackground(opts.priority);
      const { answers, later } = await checkTempos(checks, {
        timings,
        ...(firstLook ? { audioAloneLater: true } : {}),
        ...(background ? { background } : {}),
        ...(found ? { onEarlyAnswers: () => found(opts.userId!) } : {}),
        ...(stopping ? { stopping } : {}),
      });
      const counts = { found: 0, unknown: 0, deferred: 0 };
      for (const a of answers.values()) counts[a.status]++;
      const foundKeys = checks
        .filter((c) => answers.get(c.track.spotifyId)?.status === 'found')
        .map((c) => tempoKey(c.track));
      const deferred = later.filter((l) => l.retryAt);
      const second = later.filter((l) => !l.retryAt && l.secondLook).map((l) => l.check);
      const now = later.filter((l) => !l.retryAt && !l.secondLook).map((l) => l.check);
      for (let i = 0; i < second.length; i += TEMPO_BATCH)
        await audioQueue.send('tempo-audio', {
          checks: second.slice(i, i + TEMPO_BATCH),
          ...payload,
          priority: secondLookPriority(opts.priority),
          secondLook: true,
        });
      if (deferred.length > 0)
        await audioQueue.send(
          'tempo-audio',
          { checks: deferred.map((l) => l.check), ...payload },
          { startAfter: new Date(Math.max(...deferred.map((l) => l.retryAt!.getTime()))) },
        );
      if (now.length > 0) await audioQueue.send('tempo-audio', { checks: now, ...payload });
      counts.deferred = deferred.length;
      if (opts.userId && counts.found > 0) await deps.onTemposFound?.(opts.userId, foundKeys);
      const out = {
        ...counts,
        ...(second.length > 0 ? { secondLook: second.length } : {}),
        timings: rounded(timings),
      };
      return now.length > 0 ? { ...out, handedBack: now.length } : out;
    },
  };
}

/** Whole milliseconds: the output is kept with the job and written in its log line. */
const rounded = (t: LookupTimings): LookupTimings => ({
  tracks: t.tracks,
  totalMs: Math.round(t.totalMs),
  ms: Object.fromEntries(Object.entries(t.ms).map(([k, v]) => [k, Math.round(v)])),
  n: t.n,
});

export type TempoLookups = ReturnType<typeof createTempoLookups>;
