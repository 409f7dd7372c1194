import { PgBoss, type Queue, type SendOptions } from 'pg-boss';
import type { Logger } from 'pino';
import { z } from 'zod';
import { LibraryScanPayload } from '../library/scan.jobs.ts';
import type { LibraryService } from '../library/library.service.ts';
import type { ScanService } from '../library/scan.service.ts';
import { PlaylistSyncPayload, type PlaylistSyncJobs } from '../playlists/playlists.jobs.ts';
import { SpotifyDeferredError } from '../spotify/errors.ts';
import { TempoAudioPayload, TempoLookupPayload, type TempoLookups } from '../tempo/tempo.jobs.ts';
import type { HousekeepingService } from '../jobs/housekeeping.service.ts';
import type { JobOutcome } from '../jobs/job-outcome.ts';

/** The services job handlers may call. */
export interface JobServices {
  housekeeping: HousekeepingService;
  tempoLookups: Pick<TempoLookups, 'run' | 'runChecks'>;
  library: Pick<ScanService, 'runUnit'> & Pick<LibraryService, 'requestDueRescans'>;
  playlistSync: Pick<PlaylistSyncJobs, 'run'>;
}

export interface JobDefinition<S extends z.ZodType> {
  payload: S;
  /** Queue policy as data (retries, backoff, expiry). */
  queue: Omit<Queue, 'name'>;
  /** Recurring jobs: a cron expression (UTC). */
  cron?: string;
  /** Options every send of this job gets (e.g. `singletonKey` per user), re-queues included. */
  sendOptions?: (payload: z.infer<S>) => SendOptions;
  /** Jobs of this name one process runs at a time (default 1). */
  workers?: number;
  /**
   * `stopping` is aborted when the process begins to shut down: a long handler checks it between its steps
   * and returns early, its remaining work queued again (each handler says how), so the shutdown's time limit
   * holds however busy the jobs are.
   */
  handler: (services: JobServices, payload: z.infer<S>, stopping: AbortSignal) => Promise<JobOutcome>;
}

const define = <S extends z.ZodType>(d: JobDefinition<S>) => d;

/**
 * A running job's process writes a heartbeat every half of this; a job whose process died (kill -9, a lost
 * machine) is failed and retried after this plus the supervisor's interval (SUPERVISE_SECONDS), instead of
 * blocking its user's scan or writer until `expireInSeconds`, which bounds only a job that hangs.
 */
const HEARTBEAT_SECONDS = 30;
/** How often `work` processes look for expired and heartbeat-less jobs (pg-boss's default is 60 s). */
const SUPERVISE_SECONDS = 15;

/**
 * The job queue's pg-boss, built the same way by every process and by the benchmarks. Producers (serve)
 * and consumers (work) share one queue in PostgreSQL; only consumers (`runsJobs`) supervise and schedule.
 */
export function createBoss(connectionString: string, { runsJobs }: { runsJobs: boolean }): PgBoss {
  return new PgBoss({
    connectionString,
    schema: 'pgboss',
    max: 4,
    application_name: 'pacebeat-jobs',
    supervise: runsJobs,
    superviseIntervalSeconds: SUPERVISE_SECONDS,
    monitorIntervalSeconds: SUPERVISE_SECONDS, // the pass that fails expired and heartbeat-less jobs
    // Workers skip a user's scan or writer job while the cached queue stats list that user's job as active;
    // after a restart those stats are from before the stop, so this bounds how long the work waits.
    queueCacheIntervalSeconds: SUPERVISE_SECONDS,
    schedule: runsJobs,
  });
}

/** Every job Pacebeat runs: one payload schema, one queue policy and one handler per name. */
/** The tempo jobs' queue (lookups and audio checks alike): retried with backoff, half an hour each. */
const TEMPO_QUEUE = {
  policy: 'standard',
  retryLimit: 5,
  retryDelay: 60,
  retryBackoff: true,
  expireInSeconds: 1800,
  heartbeatSeconds: HEARTBEAT_SECONDS,
} as const;
/**
 * A runner's own tracks before catalogs, second looks last (TEMPO_PRIORITY); pg-boss fetches by priority,
 * then age.
 */
const byPriority = ({ priority }: { priority?: number | undefined }) => (priority ? { priority } : {});

export const jobRegistry = {
  housekeeping: define({
    payload: z.object({}).strict(),
    queue: { policy: 'singleton', retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 300 },
    cron: '*/15 * * * *',
    handler: async ({ housekeeping }) => ({ status: 'success', detail: await housekeeping.run() }),
  }),
  /**
   * Tempo for a batch of tracks (src/tempo), of `userId`'s library when given (Spotify audio-features with
   * their token); deferred tracks are re-queued with startAfter by the handler.
   */
  'tempo-lookup': define({
    payload: TempoLookupPayload,
    queue: TEMPO_QUEUE,
    // Two batches in flight. A lookup now only waits on paced services (the audio is in tempo-audio
    // jobs), and Deezer's 8 calls a second bound them all: two batches keep it busy, while six split it
    // six ways, so each batch, and its running tempos handed to the audio, came three times later
    // (bench/playlist-truth, warm previews: first 50 placed 48.5 s with six, 42.2 s with three, 36.3 s with
    // two; lookups a second 3.46, 4.34, 4.40). Every outside service is paced for all processes in
    // PostgreSQL, so more workers never mean more calls per second.
    workers: 2,
    sendOptions: byPriority,
    handler: async ({ tempoLookups }, { tracks, userId, priority, secondLook, known }, stopping) => ({
      status: 'success',
      detail: await tempoLookups.run(tracks, {
        ...(userId ? { userId } : {}),
        ...(priority ? { priority } : {}),
        ...(secondLook ? { secondLook } : {}),
        ...(known ? { known } : {}),
        stopping,
      }),
    }),
  }),
  /**
   * The checks after Deezer (GetSongBPM, the preview and the estimator) for the tracks of a tempo-lookup
   * job that Spotify, ReccoBeats and Deezer did not settle. A queue of its own, so that the lookups whose
   * sources agree (about 4 in 10 in the simulated world) are never queued behind other lookups' previews:
   * with the audio in the lookup job, six jobs waiting on previews held every worker while the next
   * batches waited (bench/playlist-truth). Deferred checks are re-queued with startAfter by the handler.
   */
  'tempo-audio': define({
    payload: TempoAudioPayload,
    queue: TEMPO_QUEUE,
    // At most as many checks in flight as the lookups had before they were split off: the previews and
    // the estimator's threads set the pace, paced for all processes (previews) or per process (threads).
    // Fewer where the preview pace is slow (`audioWorkers`, given by main.ts): a check waits in line for
    // its slot, and more workers would only lengthen the line.
    workers: 6,
    sendOptions: byPriority,
    handler: async ({ tempoLookups }, { checks, userId, priority, secondLook }, stopping) => ({
      status: 'success',
      detail: await tempoLookups.runChecks(checks, {
        ...(userId ? { userId } : {}),
        ...(priority ? { priority } : {}),
        ...(secondLook ? { secondLook } : {}),
        stopping,
      }),
    }),
  }),
  /**
   * One unit of a user's library scan (src/library): a few Spotify calls, cursors saved after each; it
   * queues the next unit while work remains. One queued and one running per user (`stately`).
   */
  'library-scan': define({
    payload: LibraryScanPayload,
    // A scan unit handles Spotify's failures itself (it pauses the source): pg-boss retries only a crash or
    // a database outage, soon (10 s doubling, about 10 minutes in all).
    queue: {
      policy: 'stately',
      retryLimit: 6,
      retryDelay: 10,
      retryBackoff: true,
      expireInSeconds: 600,
      heartbeatSeconds: HEARTBEAT_SECONDS,
    },
    // A library's first unit (its first pages) goes before the others' units (FIRST_READ_JOB_PRIORITY).
    sendOptions: ({ userId, priority }) => ({ singletonKey: userId, ...byPriority({ priority }) }),
    handler: async ({ library }, { userId }, stopping) => library.runUnit(userId, stopping),
  }),
  /**
   * The rescan schedule: every connected library not rescanned for LIBRARY_RESCAN_HOURS gets a rescan
   * (and a connected user without a library gets one).
   */
  'library-rescan': define({
    payload: z.object({}).strict(),
    queue: { policy: 'singleton', retryLimit: 2, retryDelay: 60, expireInSeconds: 300 },
    cron: '*/10 * * * *',
    handler: async ({ library }) => ({ status: 'success', detail: await library.requestDueRescans() }),
  }),
  /**
   * One playlist writer run for a user (src/playlists): at most one queued and one running per user;
   * a run that must settle an unclear write or found another writer busy queues the next itself.
   */
  'playlist-sync': define({
    payload: PlaylistSyncPayload,
    // The writer settles Spotify's failures itself; pg-boss retries a crash or a database outage (10 s
    // doubling, about 20 minutes in all).
    queue: {
      policy: 'stately',
      retryLimit: 7,
      retryDelay: 10,
      retryBackoff: true,
      expireInSeconds: 900,
      heartbeatSeconds: HEARTBEAT_SECONDS,
    },
    sendOptions: ({ userId, priority }) => ({ singletonKey: userId, ...byPriority({ priority }) }),
    handler: async ({ playlistSync }, { userId }, stopping) => {
      const result = await playlistSync.run(userId, stopping);
      return { status: result.status === 'done' ? 'success' : 'skipped', detail: result };
    },
  }),
} satisfies Record<string, JobDefinition<z.ZodType>>;

export type JobName = keyof typeof jobRegistry;
export type JobPayload<N extends JobName> = z.infer<(typeof jobRegistry)[N]['payload']>;

/** Creates every queue and schedule. Safe to run in every process; pg-boss dedupes. */
export async function setupQueues(boss: PgBoss): Promise<void> {
  for (const [name, def] of Object.entries(jobRegistry)) {
    await boss.createQueue(name, def.queue);
    // createQueue leaves an existing queue as it was: bring its settings (not its policy) up to date.
    const { policy: _policy, ...settings } = def.queue;
    await boss.updateQueue(name, settings);
    if ('cron' in def && def.cron) await boss.schedule(name, def.cron, {}, { tz: 'UTC' });
  }
}

/** The options a job's definition gives every send of it. */
function definedOptions(name: JobName, payload: unknown): SendOptions {
  const def = jobRegistry[name] as JobDefinition<z.ZodType>;
  return def.sendOptions?.(payload) ?? {};
}

/** Producer side, used by `serve` and `work` alike: validates the payload before it is queued. */
export function createJobQueue(boss: Pick<PgBoss, 'send' | 'upsert' | 'findJobs' | 'update'>) {
  return {
    async send<N extends JobName>(
      name: N,
      payload: JobPayload<N>,
      options: SendOptions = {},
    ): Promise<string | null> {
      const data = jobRegistry[name].payload.parse(payload) as object;
      return boss.send(name, data, { ...definedOptions(name, data), ...options });
    },

    /**
     * For a job with a `singletonKey`: queues it to start now, or moves its already queued copy to now
     * (a plain send would be refused while a copy waits for a later start).
     */
    async wake<N extends JobName>(name: N, payload: JobPayload<N>): Promise<void> {
      const data = jobRegistry[name].payload.parse(payload) as object;
      const { singletonKey, priority } = definedOptions(name, data);
      if (!singletonKey) throw new Error(`job ${name} has no singletonKey to wake by`);
      await boss.upsert(name, data, { singletonKey, startAfter: new Date(), ...byPriority({ priority }) });
    },

    /**
     * For a job with a `singletonKey`: queues it to start at `at`, or moves its already queued copy to `at`
     * when that copy waits longer (never later: a copy due sooner keeps its time), and to the payload's
     * priority when that is higher. A queued copy can then wait for its real due time (the writer's next
     * add), and an ask that needs it sooner still gets it sooner.
     */
    async sooner<N extends JobName>(name: N, payload: JobPayload<N>, at: Date): Promise<void> {
      const data = jobRegistry[name].payload.parse(payload) as object;
      const options = definedOptions(name, data);
      if (!options.singletonKey) throw new Error(`job ${name} has no singletonKey to move by`);
      if (await boss.send(name, data, { ...options, startAfter: at })) return;
      const priority = options.priority ?? 0;
      for (const job of await boss.findJobs(name, { key: options.singletonKey, queued: true })) {
        const later = job.startAfter.getTime() > at.getTime();
        const lower = job.priority < priority;
        if (!later && !lower) continue;
        // The job's state is checked again by the update: one a worker fetched meanwhile is left alone.
        await boss.update(name, lower ? data : undefined, {
          id: job.id,
          ...(later ? { startAfter: at } : {}),
          ...(lower ? { priority } : {}),
        });
      }
    },
  };
}
export type JobQueue = ReturnType<typeof createJobQueue>;

/**
 * Runs one job. A handler that throws `SpotifyDeferredError` (rate limit, daily quota, outage) is not a
 * failure: the same payload is queued again to start when Spotify work may resume, and no retry is spent
 * (STYLE.md §9: never sleep in process).
 */
export async function runJob(
  boss: Pick<PgBoss, 'send'>,
  name: JobName,
  def: JobDefinition<z.ZodType>,
  services: JobServices,
  data: unknown,
  stopping: AbortSignal = new AbortController().signal,
): Promise<JobOutcome> {
  const payload = def.payload.parse(data);
  try {
    return await def.handler(services, payload, stopping);
  } catch (err) {
    if (!(err instanceof SpotifyDeferredError)) throw err;
    const id = await boss.send(name, payload as object, {
      ...def.sendOptions?.(payload),
      startAfter: err.retryAt,
    });
    return {
      status: 'skipped',
      detail: { deferredUntil: err.retryAt.toISOString(), reason: err.reason, requeuedAs: id },
    };
  }
}

/**
 * Consumer side (`work`): one worker per job name; a payload that fails its schema fails the job.
 * `stopping`: aborted when the process shuts down (see JobDefinition's handler).
 */
export async function startWorkers(
  boss: PgBoss,
  services: JobServices,
  log: Logger,
  stopping?: AbortSignal,
  /** Workers per job name instead of the definitions' (from the configuration). */
  workers: Partial<Record<JobName, number>> = {},
): Promise<void> {
  for (const [name, def] of Object.entries(jobRegistry) as [JobName, JobDefinition<z.ZodType>][]) {
    const localConcurrency = workers[name] ?? def.workers ?? 1;
    await boss.work(name, { batchSize: 1, localConcurrency }, async ([job]) => {
      if (!job) return;
      const jobLog = log.child({ job: name, jobId: job.id });
      const outcome = await runJob(boss, name, def, services, job.data, stopping);
      jobLog.info({ outcome }, 'job finished');
      return outcome;
    });
  }
}
