// A runner's choices: tempo corrections and exclusions, and their effects. A correction applies at once (the
// user's playlist-sync is queued; matching uses it over the resolver's tempo) and is kept across rescans and
// new answers from tempo sources (it lives in the user's own table). Removing what Pacebeat added happens only
// when the runner asks, through the playlists writer's removal port.
import type { Exclusion, ExclusionKind, Meter } from '@pacebeat/contract';
import { notFound } from '../errors.ts';
import { fitsRange, meterLeftOut } from '../playlists/matching.ts';
import type { RunnerChoices } from '../playlists/runner-choices.ts';
import type { ChoicesRepository, ExclusionRow } from './choices.repository.ts';
import type { AddedPair, TrackListsRepository } from './track-lists.repository.ts';

/**
 * The playlists writer's port (`requestRemovals`): remove from these targets' playlists what Pacebeat added
 * (never the user's own), queue the user's playlist-sync; returns how many rows were marked.
 */
export type RemoveFromTargets = (userId: string, removals: AddedPair[]) => Promise<number>;

export interface ChoicesServiceDeps {
  repo: ChoicesRepository;
  lists: Pick<
    TrackListsRepository,
    'targetsOf' | 'trackInLibrary' | 'artistInLibrary' | 'artistNames' | 'addedOfRecordings' | 'addedOfArtist'
  >;
  removeFromTargets: RemoveFromTargets;
  /** Queues the user's playlist-sync (playlists module). */
  triggerSync: (userId: string) => Promise<unknown>;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export const presentExclusion = (r: ExclusionRow): Exclusion => ({
  kind: r.kind,
  key: r.key,
  label: r.label,
  detail: r.detail,
  created_at: Math.floor(r.createdAt.getTime() / 1000),
});

export function createChoicesService(deps: ChoicesServiceDeps) {
  const { repo, lists } = deps;

  // A runner acts only on their own library: an id outside it answers as an unknown one, so nobody learns
  // what another runner's library holds.
  const trackNotFound = () => notFound('No such track in the library.', 'TrackNotFound');

  async function namesOf(
    userId: string,
    kind: ExclusionKind,
    key: string,
  ): Promise<{ label: string; detail: string }> {
    if (kind === 'artist') {
      const name = await lists.artistInLibrary(userId, key);
      if (name === undefined) throw notFound('No such artist in the library.', 'ArtistNotFound');
      return { label: name || 'Unknown artist', detail: '' };
    }
    const track = await lists.trackInLibrary(userId, key);
    if (!track) throw trackNotFound();
    const names = await lists.artistNames(track.artistIds);
    return { label: track.title, detail: track.artistIds.map((a) => names.get(a) || '?').join(', ') };
  }

  return {
    /** The user's choices as matching reads them (the playlists writer's RunnerChoices port). */
    async runnerChoices(userId: string): Promise<RunnerChoices> {
      const [corrections, meterCorrections, exclusions] = await Promise.all([
        repo.corrections(userId),
        repo.meterCorrections(userId),
        repo.exclusions(userId),
      ]);
      const of = (kind: ExclusionKind) =>
        new Set(exclusions.filter((e) => e.kind === kind).map((e) => e.key));
      return {
        corrections,
        meterCorrections,
        excludedRecordings: of('track'),
        excludedArtists: of('artist'),
      };
    },

    /**
     * Sets the user's tempo of a recording and queues a writer run that places it where it now fits. With
     * `removeFromOldTargets`, what Pacebeat added of it to targets it no longer fits is removed.
     */
    async correctTempo(userId: string, recordingKey: string, bpm: number, removeFromOldTargets: boolean) {
      if (!(await lists.trackInLibrary(userId, recordingKey))) throw trackNotFound();
      const value = round2(bpm);
      await repo.setCorrection(userId, recordingKey, value);
      let removals = 0;
      if (removeFromOldTargets) {
        const targets = new Map((await lists.targetsOf(userId)).map((t) => [t.id, t]));
        const pairs = (await lists.addedOfRecordings(userId, [recordingKey])).filter((p) => {
          const t = targets.get(p.targetId);
          return t !== undefined && !fitsRange(value, t.minBpm, t.maxBpm);
        });
        if (pairs.length > 0) removals = await deps.removeFromTargets(userId, pairs);
      }
      await deps.triggerSync(userId);
      return { recording_key: recordingKey, bpm: value, removals_requested: removals };
    },

    /** Drops the user's correction: the resolver's tempo applies again (a writer run is queued). */
    async undoCorrection(userId: string, recordingKey: string) {
      if (!(await repo.deleteCorrection(userId, recordingKey)))
        throw notFound('This track has no tempo correction.', 'CorrectionNotFound');
      await deps.triggerSync(userId);
      return { undone: true as const };
    },

    /**
     * Sets the user's meter of a recording ("this one is in 4/4") and queues a writer run that places it
     * where its meter is now taken. With `removeFromOldTargets`, what Pacebeat added of it to targets that
     * do not take that meter is removed.
     */
    async correctMeter(userId: string, recordingKey: string, meter: Meter, removeFromOldTargets: boolean) {
      if (!(await lists.trackInLibrary(userId, recordingKey))) throw trackNotFound();
      await repo.setMeterCorrection(userId, recordingKey, meter);
      let removals = 0;
      if (removeFromOldTargets) {
        const targets = new Map((await lists.targetsOf(userId)).map((t) => [t.id, t]));
        const pairs = (await lists.addedOfRecordings(userId, [recordingKey])).filter((p) => {
          const t = targets.get(p.targetId);
          return t !== undefined && meterLeftOut(t, meter) !== null;
        });
        if (pairs.length > 0) removals = await deps.removeFromTargets(userId, pairs);
      }
      await deps.triggerSync(userId);
      return { recording_key: recordingKey, meter, removals_requested: removals };
    },

    /** Drops the user's meter correction: the resolver's meter applies again (a writer run is queued). */
    async undoMeterCorrection(userId: string, recordingKey: string) {
      if (!(await repo.deleteMeterCorrection(userId, recordingKey)))
        throw notFound('This track has no meter correction.', 'MeterCorrectionNotFound');
      await deps.triggerSync(userId);
      return { undone: true as const };
    },

    /**
     * Keeps a track (by recording) or an artist out of every target. With `removeFromTargets`, what
     * Pacebeat added of it is removed from every target; the user's own tracks never are.
     */
    async exclude(userId: string, kind: ExclusionKind, key: string, removeFromTargets: boolean) {
      const row = await repo.addExclusion(userId, kind, key, await namesOf(userId, kind, key));
      let removals = 0;
      if (removeFromTargets) {
        const pairs =
          kind === 'track'
            ? await lists.addedOfRecordings(userId, [key])
            : await lists.addedOfArtist(userId, key);
        if (pairs.length > 0) removals = await deps.removeFromTargets(userId, pairs);
      }
      return { exclusion: presentExclusion(row), removals_requested: removals };
    },

    /** Restores an excluded track or artist: matching may place it again (a writer run is queued). */
    async restore(userId: string, kind: ExclusionKind, key: string) {
      if (!(await repo.deleteExclusion(userId, kind, key)))
        throw notFound('This is not excluded.', 'ExclusionNotFound');
      await deps.triggerSync(userId);
      return { undone: true as const };
    },

    /** A page of the Excluded list, newest first. */
    async exclusions(userId: string, offset: number, limit: number) {
      const { rows, total } = await repo.exclusionsPage(userId, offset, limit);
      const next = offset + rows.length;
      return { exclusions: rows.map(presentExclusion), total, next_offset: next < total ? next : null };
    },

    /** Disconnect: the user's corrections and exclusions go with their music-account data. */
    async forgetUser(userId: string): Promise<void> {
      await repo.deleteUserData(userId);
    },
  };
}

export type ChoicesService = ReturnType<typeof createChoicesService>;
