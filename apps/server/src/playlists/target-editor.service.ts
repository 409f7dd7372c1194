// The runner's own edits of their targets: add, rename, change the range or the filters,
// delete (in Pacebeat only: the Spotify playlist stays), and ask for what no longer fits to be removed.
// Every change asks for a writer run: new matches are placed, a new name goes to Spotify.
import {
  bpmRangeProblem,
  type NewTargetBody,
  type Target,
  type TargetEditBody,
  type TargetFilters as ApiFilters,
} from '@pacebeat/contract';
import { OTHER_METERS } from '@pacebeat/contract/rules';
import { badRequest, conflict, notFound } from '../errors.ts';
import { targetName, type TargetFilters } from './matching.ts';
import { presentTarget } from './playlists.service.ts';
import type { PlaylistsRepository, TargetRow } from './playlists.repository.ts';
import { isUniqueViolation } from './targets.repository.ts';

/** At most this many live targets per runner: each is a playlist the daily call budget keeps filling. */
export const MAX_TARGETS = 12;

export interface TargetEditorDeps {
  repo: Pick<
    PlaylistsRepository,
    | 'getTarget'
    | 'addTarget'
    | 'editTarget'
    | 'archiveTarget'
    | 'requestAllRemovals'
    | 'listTargets'
    | 'statsOf'
  >;
  /** Asks for a writer run for the user soon (the playlist-sync job). */
  trigger: (userId: string) => Promise<unknown>;
  /** Told when the runner's paces may take other tempos: a pace added, a range edited. */
  onWantedTemposChanged?: (userId: string) => Promise<unknown>;
}

const noSuchTarget = () => notFound('You have no such target.', 'TargetNotFound');
const nameTaken = () => conflict('You already have a target of that name.', 'TargetNameTaken');

/** API filters (seconds) to stored ones (milliseconds); only the fields given. */
function filtersOf(f: Partial<ApiFilters> | undefined): Partial<TargetFilters> {
  if (!f) return {};
  const ms = (s: number | null) => (s === null ? null : s * 1000);
  return {
    ...(f.no_explicit !== undefined ? { noExplicit: f.no_explicit } : {}),
    ...(f.liked_only !== undefined ? { likedOnly: f.liked_only } : {}),
    ...(f.min_duration_s !== undefined ? { minDurationMs: ms(f.min_duration_s) } : {}),
    ...(f.max_duration_s !== undefined ? { maxDurationMs: ms(f.max_duration_s) } : {}),
    // Stored in one order, so that the same choice reads the same whatever order it was sent in.
    ...(f.meters_included !== undefined
      ? { metersIncluded: OTHER_METERS.filter((m) => f.meters_included!.includes(m)) }
      : {}),
  };
}

/** A repeated add is one within this time of the first, with the same name, range and filters. */
export const REPEATED_ADD_MS = 60_000;

/** True when `t` is what this add request made a moment ago (so the request is a repeat of it). */
function madeBy(t: TargetRow, name: string, body: NewTargetBody, now = Date.now()): boolean {
  if (t.name !== name || t.minBpm !== body.min_bpm || t.maxBpm !== body.max_bpm) return false;
  if (now - t.createdAt.getTime() > REPEATED_ADD_MS) return false;
  const given = filtersOf(body.filters) as Record<string, unknown>;
  return Object.entries(given).every(
    ([key, value]) => JSON.stringify((t as Record<string, unknown>)[key]) === JSON.stringify(value),
  );
}

export function createTargetEditor(deps: TargetEditorDeps) {
  async function shown(t: TargetRow, timeZone: string | null): Promise<Target> {
    const stats = await deps.repo.statsOf([t.id], new Date(Date.now() - 7 * 86_400_000));
    return presentTarget(t, stats.get(t.id), timeZone);
  }

  async function unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
  }

  return {
    /**
     * A new target; its playlist is made once it has a match. The same request again (a double click, a
     * retry after a lost answer) answers the target it made, not a conflict over its own name.
     */
    async add(userId: string, body: NewTargetBody, timeZone: string | null): Promise<Target> {
      const name = body.name ?? targetName(body.min_bpm, body.max_bpm);
      const live = await deps.repo.listTargets(userId);
      const repeated = live.find((t) => madeBy(t, name, body));
      if (repeated) return shown(repeated, timeZone);
      const full = () => conflict(`You can have at most ${MAX_TARGETS} target playlists.`, 'TooManyTargets');
      if (live.length >= MAX_TARGETS) throw full();
      let t: TargetRow | undefined;
      try {
        t = await deps.repo.addTarget(
          userId,
          { name, minBpm: body.min_bpm, maxBpm: body.max_bpm, ...filtersOf(body.filters) },
          MAX_TARGETS,
        );
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        // Two of the same request at once: the other one made it.
        const made = (await deps.repo.listTargets(userId)).find((x) => madeBy(x, name, body));
        if (made) return shown(made, timeZone);
        throw nameTaken();
      }
      if (!t) throw full(); // others were added at the same moment
      await deps.onWantedTemposChanged?.(userId);
      await deps.trigger(userId);
      return shown(t, timeZone);
    },

    /**
     * Edits a target. A new range or looser filters place the new matches; nothing already placed is
     * removed (see `removeUnfitting`). A target still named after its range follows a new range.
     */
    async edit(userId: string, id: string, body: TargetEditBody, timeZone: string | null): Promise<Target> {
      const t = await deps.repo.getTarget(userId, id);
      if (!t) throw noSuchTarget();
      const minBpm = body.min_bpm ?? t.minBpm;
      const maxBpm = body.max_bpm ?? t.maxBpm;
      const rangeProblem = bpmRangeProblem(minBpm, maxBpm);
      if (rangeProblem) throw badRequest(rangeProblem);
      const filters = { ...t, ...filtersOf(body.filters) };
      if (
        filters.minDurationMs !== null &&
        filters.maxDurationMs !== null &&
        filters.minDurationMs > filters.maxDurationMs
      )
        throw badRequest('The shortest duration must not exceed the longest.');
      const rangeChanged = minBpm !== t.minBpm || maxBpm !== t.maxBpm;
      const followsRange = rangeChanged && t.name === targetName(t.minBpm, t.maxBpm);
      const name = body.name ?? (followsRange ? targetName(minBpm, maxBpm) : undefined);
      const patch = {
        ...(name !== undefined && name !== t.name ? { name } : {}),
        ...(rangeChanged ? { minBpm, maxBpm } : {}),
        ...filtersOf(body.filters),
      };
      if (Object.keys(patch).length === 0) return shown(t, timeZone);
      const edited = await unique(() => deps.repo.editTarget(userId, id, patch));
      if (!edited) throw noSuchTarget();
      if (rangeChanged) await deps.onWantedTemposChanged?.(userId);
      await deps.trigger(userId);
      return shown(edited, timeZone);
    },

    /** Deletes a target in Pacebeat: no more writes; the playlist and its songs stay in Spotify. */
    async remove(userId: string, id: string): Promise<void> {
      if (!(await deps.repo.archiveTarget(userId, id))) throw noSuchTarget();
    },

    /**
     * The runner asks Pacebeat to take out of the playlist what it added and what no longer fits (range,
     * filters, tempo). Returns the tracks marked; the writer keeps those that still fit.
     */
    async removeUnfitting(userId: string, id: string): Promise<number> {
      if (!(await deps.repo.getTarget(userId, id))) throw noSuchTarget();
      const marked = await deps.repo.requestAllRemovals(userId, id);
      if (marked > 0) await deps.trigger(userId);
      return marked;
    },
  };
}

export type TargetEditor = ReturnType<typeof createTargetEditor>;
