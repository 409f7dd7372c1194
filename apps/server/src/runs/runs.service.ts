// Runs: a runner's saved workouts, the songs of their library that fit each segment, and builds written to
// one Spotify playlist per run. The songs come from the library's own candidates under the writer's rules
// (a checked tempo or the runner's correction; exclusions; the run's filters), one per song.
import {
  RUN_TEXTS,
  RUNS_PER_RUNNER_MAX,
  describeRun,
  runDuration,
  segmentCount,
  unfoldRun,
  type Run,
  type RunBody,
  type RunSummary,
} from '@pacebeat/contract';
import { conflict, notFound } from '../errors.ts';
import type { ListMatchCandidates, MatchCandidate } from '../playlists/candidates.ts';
import {
  matchBpm,
  meterLeftOut,
  MIN_CONFIDENCE,
  passesFilters,
  songOf,
  type TempoFact,
} from '../playlists/matching.ts';
import type { LoadRunnerChoices } from '../playlists/runner-choices.ts';
import { SongSet } from '../playlists/song-identity.ts';
import type { SpotifyAccountRepository } from '../spotify/account.repository.ts';
import type { SpotifyApi } from '../spotify/api.ts';
import type { CallContext } from '../spotify/client.ts';
import { SpotifyNotConnectedError } from '../spotify/errors.ts';
import type { TempoRepository } from '../tempo/tempo.repository.ts';
import type { StoredRunSong } from '../db/runs.schema.ts';
import { boundaryMisses, buildRun, poolSizes, type RunPoolSong } from './build.ts';
import { poolNotes } from './pool-notes.ts';
import { outcomeOf, writeRunPlaylist } from './run-playlist.ts';
import type { RunBuildRow, RunFields, RunRow, RunsRepository } from './runs.repository.ts';

export interface RunsServiceDeps {
  repo: RunsRepository;
  listMatchCandidates: ListMatchCandidates;
  tempos: Pick<TempoRepository, 'getByKeys'>;
  runnerChoices: LoadRunnerChoices;
  /** Artists' names by id (choices module's track lists). */
  artistNames: (artistIds: string[]) => Promise<Map<string, string>>;
  accounts: Pick<SpotifyAccountRepository, 'get'>;
  api: (ctx: CallContext) => SpotifyApi;
  /** Told when a run is saved: its segments may take tempos no playlist took (the second look's songs). */
  onWantedTemposChanged?: (userId: string) => Promise<unknown>;
  minConfidence?: number;
  now?: () => number;
}

/** Tempo cache keys per query (well under PostgreSQL's parameter limit). */
const TEMPO_CHUNK = 5000;
/** Builds whose songs a rebuild avoids while the pool allows. */
const FRESH_OVER_BUILDS = 2;

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

const fieldsOf = (b: RunBody): RunFields => ({
  name: b.name,
  blocks: b.blocks,
  halfTime: b.half_time,
  noExplicit: b.no_explicit,
  likedOnly: b.liked_only,
});

export function createRunsService(deps: RunsServiceDeps) {
  const minConfidence = deps.minConfidence ?? MIN_CONFIDENCE;
  const now = deps.now ?? Date.now;

  async function temposOf(keys: string[]): Promise<Map<string, TempoFact>> {
    const out = new Map<string, TempoFact>();
    for (let i = 0; i < keys.length; i += TEMPO_CHUNK)
      for (const [k, v] of await deps.tempos.getByKeys(keys.slice(i, i + TEMPO_CHUNK))) out.set(k, v);
    return out;
  }

  /**
   * The songs of the runner's library a run may use: best-ranked track of each song, with the tempo the
   * writer would place it with (the runner's correction, else a checked tempo); excluded tracks and
   * artists, songs in another meter than 4/4 (as a pace playlist by default), and what the run's filters
   * leave out, are not there.
   */
  async function poolOf(userId: string, run: RunRow): Promise<RunPoolSong[]> {
    const candidates = await deps.listMatchCandidates(userId);
    const [tempos, choices] = await Promise.all([
      temposOf([...new Set(candidates.map((c) => c.recordingKey))]),
      deps.runnerChoices(userId),
    ]);
    const filters = { noExplicit: run.noExplicit, likedOnly: run.likedOnly };
    const songs = new SongSet();
    const out: RunPoolSong[] = [];
    const ordered = candidates.map((c, i) => ({ c, i })).sort((a, b) => a.c.rank - b.c.rank || a.i - b.i);
    for (const { c } of ordered as Array<{ c: MatchCandidate }>) {
      if (!passesFilters(filters, c)) continue;
      const chosen = matchBpm(c, tempos.get(c.recordingKey), choices, minConfidence);
      // A run is a pace too: a song in 3/4, 6/8 or an odd meter stays out (unless the runner said 4/4).
      if (chosen === null || meterLeftOut({}, chosen.meter)) continue;
      const song = songOf(c);
      if (songs.has(song)) continue;
      songs.add(song);
      out.push({
        trackId: c.trackId,
        recordingKey: c.recordingKey,
        title: c.title,
        artistIds: c.artistIds,
        durationMs: c.durationMs,
        bpm: chosen.bpm,
        hi: chosen.hi,
        fromLikedSongs: c.fromLikedSongs,
      });
    }
    return out;
  }

  async function runOf(userId: string, runId: string): Promise<RunRow> {
    const run = await deps.repo.get(userId, runId);
    if (!run) throw notFound(RUN_TEXTS.noSuchRun, 'RunNotFound');
    return run;
  }

  /** The run as the page shows it: its plan, the pool of each segment, and its last build. */
  async function present(
    userId: string,
    run: RunRow,
    latest?: RunBuildRow | null,
    known?: RunPoolSong[],
  ): Promise<Run> {
    const segments = unfoldRun(run.blocks);
    const pool = known ?? (await poolOf(userId, run));
    const sizes = poolSizes(segments, pool, run.halfTime);
    const build = latest === undefined ? ((await deps.repo.builds(run.id, 1))[0] ?? null) : latest;
    return {
      run_id: run.id,
      name: run.name,
      blocks: run.blocks,
      half_time: run.halfTime,
      no_explicit: run.noExplicit,
      liked_only: run.likedOnly,
      public_url: run.publicUrl,
      planned_s: runDuration(run.blocks),
      description: describeRun(run.blocks),
      segments: segments.map((s, i) => ({ ...s, pool: sizes[i]! })),
      pool_notes: poolNotes(segments, pool, { halfTime: run.halfTime, likedOnly: run.likedOnly }),
      build: build && presentBuild(segments, build),
    };
  }

  function presentBuild(segments: ReturnType<typeof unfoldRun>, b: RunBuildRow): Run['build'] {
    const songs = b.songs;
    const total = songs.reduce((n, s) => n + s.durationMs, 0) / 1000;
    const misses = boundaryMisses(segments, songs);
    return {
      built_at: seconds(b.builtAt),
      songs: songs.map((s) => ({
        track_id: s.trackId,
        recording_key: s.recordingKey,
        title: s.title,
        artists: s.artists,
        duration_ms: s.durationMs,
        bpm: s.bpm,
        fit: s.fit,
        segment: s.segment,
        start_s: Math.round(s.startS),
        spans: s.spans,
        fresh: s.fresh,
      })),
      total_s: Math.round(total),
      boundary_max_s: Math.round(Math.max(0, ...misses)),
      spotify: { state: b.spotifyState, message: b.spotifyMessage, calls: b.spotifyCalls },
    };
  }

  /** Writes a build's songs to the run's playlist and records how it went. */
  async function send(userId: string, run: RunRow, build: RunBuildRow): Promise<RunBuildRow> {
    const account = await deps.accounts.get(userId);
    const outcome = account
      ? await writeRunPlaylist({
          api: deps.api({ userId, purpose: 'run:build', priority: 'interactive' }),
          repo: deps.repo,
          run,
          trackIds: build.songs.map((s) => s.trackId),
          ownerId: account.spotifyUserId,
          now,
        })
      : outcomeOf(new SpotifyNotConnectedError(), 0);
    const calls = build.spotifyCalls + outcome.calls;
    await deps.repo.setBuildSpotify(build.id, { ...outcome, calls });
    return { ...build, spotifyState: outcome.state, spotifyMessage: outcome.message, spotifyCalls: calls };
  }

  return {
    /** GET /api/spotify/runs */
    async list(userId: string): Promise<RunSummary[]> {
      return (await deps.repo.list(userId)).map((r) => ({
        run_id: r.id,
        name: r.name,
        planned_s: runDuration(r.blocks),
        segments: segmentCount(r.blocks),
        public_url: r.publicUrl,
        built_at: r.builtAt && seconds(r.builtAt),
      }));
    },

    async get(userId: string, runId: string): Promise<Run> {
      return present(userId, await runOf(userId, runId));
    },

    async create(userId: string, body: RunBody): Promise<Run> {
      const r = await deps.repo.create(userId, fieldsOf(body), RUNS_PER_RUNNER_MAX);
      if (r === 'full') throw conflict(RUN_TEXTS.tooManyRuns, 'TooManyRuns');
      if (r === 'taken') throw conflict(RUN_TEXTS.nameTaken, 'RunNameTaken');
      await deps.onWantedTemposChanged?.(userId);
      return present(userId, r, null);
    },

    /** Saves the changes; the last build stays (and its playlist) until the next build. */
    async edit(userId: string, runId: string, body: RunBody): Promise<Run> {
      const r = await deps.repo.update(userId, runId, fieldsOf(body));
      if (r === 'taken') throw conflict(RUN_TEXTS.nameTaken, 'RunNameTaken');
      if (!r) throw notFound(RUN_TEXTS.noSuchRun, 'RunNotFound');
      await deps.onWantedTemposChanged?.(userId);
      return present(userId, r);
    },

    /** Deletes the run from Pacebeat; its Spotify playlist stays the runner's. */
    async remove(userId: string, runId: string): Promise<void> {
      if (!(await deps.repo.remove(userId, runId))) throw notFound(RUN_TEXTS.noSuchRun, 'RunNotFound');
    },

    /** Builds the run afresh from the library and writes it to its playlist. */
    async build(userId: string, runId: string): Promise<Run> {
      const run = await runOf(userId, runId);
      const segments = unfoldRun(run.blocks);
      const pool = await poolOf(userId, run);
      const last = await deps.repo.builds(run.id, FRESH_OVER_BUILDS);
      const recent = new Set(last.flatMap((b) => b.songs.map((s) => s.recordingKey)));
      const built = buildRun(segments, pool, { halfTime: run.halfTime, recent, seed: now() % 2 ** 31 });
      const names = await deps.artistNames([...new Set(built.flatMap((b) => b.song.artistIds))]);
      const songs: StoredRunSong[] = built.map((b) => ({
        trackId: b.song.trackId,
        recordingKey: b.song.recordingKey,
        title: b.song.title,
        artistIds: b.song.artistIds,
        artists: b.song.artistIds.map((a) => names.get(a) ?? 'Unknown artist'),
        durationMs: b.song.durationMs,
        bpm: b.song.bpm,
        fit: b.fit,
        segment: b.segment,
        startS: b.startS,
        spans: b.spans,
        fresh: b.fresh,
      }));
      const row = await deps.repo.addBuild(run.id, songs);
      const sent = await send(userId, run, row);
      return present(userId, (await deps.repo.get(userId, run.id)) ?? run, sent, pool);
    },

    /** Writes the last build to Spotify again (after the share was spent, or a refusal). */
    async send(userId: string, runId: string): Promise<Run> {
      const run = await runOf(userId, runId);
      const [latest] = await deps.repo.builds(run.id, 1);
      if (!latest) throw conflict(RUN_TEXTS.noBuild, 'RunNotBuilt');
      const sent = await send(userId, run, latest);
      return present(userId, (await deps.repo.get(userId, run.id)) ?? run, sent);
    },

    /** The runs' playlists (never a library source). */
    playlistIdsOf: (userId: string) => deps.repo.playlistIdsOf(userId),

    /** The music account is gone: the runs stay, their playlists' links and builds go. */
    forgetMusicAccount: (userId: string) => deps.repo.forgetMusicAccount(userId),
  };
}

export type RunsService = ReturnType<typeof createRunsService>;
