// A target's three lists: what Pacebeat placed (newest first, paged in SQL), what fits
// and waits, and what it skips (both computed by the writer's own rules over the user's library, then paged).
import {
  spotifyLink,
  type TargetTracksQuery,
  type TargetTracksReply,
  type TempoSourceName,
  type TrackRow,
} from '@pacebeat/contract';
import { createOneAtATime } from '../cache/one-at-a-time.ts';
import { notFound } from '../errors.ts';
import type { ListMatchCandidates } from '../playlists/candidates.ts';
import { meterOf, MIN_CONFIDENCE, type TempoFact } from '../playlists/matching.ts';
import type { PlaylistsRepository } from '../playlists/playlists.repository.ts';
import { excludedBy, type LoadRunnerChoices } from '../playlists/runner-choices.ts';
import { SongSet } from '../playlists/song-identity.ts';
import type { CachedTempo, TempoRepository } from '../tempo/tempo.repository.ts';
import { foldOf, skippedBy, waitingFor } from './classify.ts';
import type { TargetOfUser, TrackListsRepository } from './track-lists.repository.ts';

export interface TrackListsServiceDeps {
  lists: Pick<TrackListsRepository, 'targetOf' | 'placedPage' | 'tracks' | 'artistNames'>;
  listMatchCandidates: ListMatchCandidates;
  tempos: Pick<TempoRepository, 'getByKeys'>;
  placedSongs: PlaylistsRepository['placedSongs'];
  runnerChoices: LoadRunnerChoices;
  minConfidence?: number;
}

/** One entry of a list before its names are looked up. */
interface Entry {
  trackId: string;
  recordingKey: string;
  bpm: number | null;
  addedAt?: Date | null;
  reason?: TrackRow['reason'];
}

/** Tempo cache keys per query (well under PostgreSQL's parameter limit). */
const TEMPO_CHUNK = 5000;
const sameBpm = (a: number, b: number) => Math.abs(a - b) < 0.01;
const SOURCES = new Set<string>(['spotify', 'reccobeats', 'deezer', 'getsongbpm', 'estimator']);

export function createTrackListsService(deps: TrackListsServiceDeps) {
  const minConfidence = deps.minConfidence ?? MIN_CONFIDENCE;
  /** A user's Waiting and Skipped computations run one at a time; a burst of the same list shares one. */
  const oneAtATime = createOneAtATime<Awaited<ReturnType<typeof computed>>>();

  async function temposOf(keys: string[]): Promise<Map<string, CachedTempo>> {
    const out = new Map<string, CachedTempo>();
    for (let i = 0; i < keys.length; i += TEMPO_CHUNK)
      for (const [k, v] of await deps.tempos.getByKeys(keys.slice(i, i + TEMPO_CHUNK))) out.set(k, v);
    return out;
  }

  /** Waiting or skipped: the writer's rules over the whole library, the page cut after. */
  async function computed(userId: string, t: TargetOfUser, list: 'waiting' | 'skipped') {
    const candidates = await deps.listMatchCandidates(userId);
    const tempos = await temposOf([...new Set(candidates.map((c) => c.recordingKey))]);
    const placed = (await deps.placedSongs([t.id])).get(t.id) ?? new SongSet();
    const choices = await deps.runnerChoices(userId);
    const input = {
      target: t,
      candidates,
      tempos: tempos as Map<string, TempoFact>,
      placed,
      choices,
      minConfidence,
    };
    const entries: Entry[] =
      list === 'waiting'
        ? waitingFor(input).map((p) => ({ trackId: p.trackId, recordingKey: p.recordingKey, bpm: p.bpm }))
        : skippedBy(input);
    return { entries, tempos, choices };
  }

  return {
    /** GET /api/spotify/targets/:targetId/tracks: one page of a target's list; 404 for another user's target. */
    async targetTracks(
      userId: string,
      targetId: string,
      q: TargetTracksQuery,
    ): Promise<TargetTracksReply['data']> {
      const t = await deps.lists.targetOf(userId, targetId);
      if (!t) throw notFound('No such target.', 'TargetNotFound');
      let page: Entry[];
      let total: number;
      let tempos: Map<string, CachedTempo>;
      let choices;
      if (q.list === 'placed') {
        const r = await deps.lists.placedPage(t.id, q.offset, q.limit);
        page = r.rows;
        total = r.total;
        [tempos, choices] = await Promise.all([
          temposOf(page.map((e) => e.recordingKey)),
          deps.runnerChoices(userId),
        ]);
      } else {
        const list = q.list;
        // The whole list is computed (the page is cut below), so the key holds no offset or limit.
        const r = await oneAtATime(userId, `${t.id}:${list}`, async () => {
          // Read again when it runs: a shared computation starts after every caller's request arrived.
          const now = await deps.lists.targetOf(userId, targetId);
          if (!now) throw notFound('No such target.', 'TargetNotFound');
          return computed(userId, now, list);
        });
        page = r.entries.slice(q.offset, q.offset + q.limit);
        total = r.entries.length;
        ({ tempos, choices } = r);
      }
      const tracks = await deps.lists.tracks(page.map((e) => e.trackId));
      const names = await deps.lists.artistNames([
        ...new Set([...tracks.values()].flatMap((x) => x.artistIds)),
      ]);

      const rows = page.map((e): TrackRow => {
        const info = tracks.get(e.trackId);
        const tempo = tempos.get(e.recordingKey);
        const corrected = choices.corrections.get(e.recordingKey) ?? null;
        const byCorrection = corrected !== null && e.bpm !== null && sameBpm(e.bpm, corrected);
        const source = byCorrection
          ? 'correction'
          : e.bpm !== null && tempo?.source && SOURCES.has(tempo.source)
            ? (tempo.source as TempoSourceName)
            : null;
        const artistIds = info?.artistIds ?? [];
        return {
          track_id: e.trackId,
          recording_key: e.recordingKey,
          title: info?.title ?? 'Unknown track',
          artists: artistIds.map((id) => ({ id, name: names.get(id) || 'Unknown artist' })),
          bpm: e.bpm,
          source,
          confidence: source && source !== 'correction' ? (tempo?.confidence ?? null) : null,
          fold: e.bpm !== null ? foldOf(e.bpm, t.minBpm, t.maxBpm) : null,
          resolver_bpm: tempo?.bpm ?? null,
          corrected_bpm: corrected,
          meter: meterOf(e.recordingKey, tempo, choices),
          corrected_meter: choices.meterCorrections.get(e.recordingKey) ?? null,
          added_at: e.addedAt ? Math.floor(e.addedAt.getTime() / 1000) : null,
          reason: e.reason ?? null,
          excluded: excludedBy({ recordingKey: e.recordingKey, artistIds }, choices),
        };
      });
      const next = q.offset + rows.length;
      return {
        target: {
          target_id: t.id,
          target: t.name,
          bpms: { min: t.minBpm, max: t.maxBpm },
          public_url: spotifyLink(t.publicUrl),
        },
        list: q.list,
        tracks: rows,
        total,
        next_offset: next < total ? next : null,
      };
    },
  };
}

export type TrackListsService = ReturnType<typeof createTrackListsService>;
