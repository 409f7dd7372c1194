// The paces feature's calls (issue 15): the targets and sources (the status page's own queries), the
// tempo chart's data, and the writes (each refreshes what it changed).
import type {
  NewTargetBody,
  RefreshBody,
  RefreshReply,
  RemoveUnfittingReply,
  TargetDeletedReply,
  TargetEditBody,
  TargetReply,
  TempoHistogramReply,
} from '@pacebeat/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { typed } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { useSession } from '../session/session-context.ts';
import { sourcesQuery, targetsQuery } from '../status/status-queries.ts';

/** The page reloads like the status page (spec §4's 15 s), so placements and new tempos show. */
const RELOAD_MS = 15_000;

export function usePacesData() {
  const { api, sudo } = useSession();
  const targets = useQuery({ ...targetsQuery(api, sudo), refetchInterval: RELOAD_MS });
  const sources = useQuery({ ...sourcesQuery(api, sudo), refetchInterval: RELOAD_MS });
  const histogram = useQuery({
    queryKey: queryKeys.spotify.tempoHistogram(sudo),
    queryFn: () => api.get('spotify/tempo_histogram', typed<TempoHistogramReply>()),
    refetchInterval: RELOAD_MS,
  });
  return { targets, sources, histogram };
}

export function usePacesWrites() {
  const { api, sudo } = useSession();
  const client = useQueryClient();
  const done = () => client.invalidateQueries({ queryKey: queryKeys.spotify.targets(sudo) });
  const path = (id: string) => `spotify/targets/${encodeURIComponent(id)}`;
  return {
    add: useMutation({
      mutationFn: (body: NewTargetBody) => api.post('spotify/targets', body, typed<TargetReply>()),
      onSuccess: done,
    }),
    edit: useMutation({
      mutationFn: ({ id, body }: { id: string; body: TargetEditBody }) =>
        api.patch(path(id), body, typed<TargetReply>()),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api.delete(path(id), typed<TargetDeletedReply>()),
      onSuccess: done,
    }),
    removeUnfitting: useMutation({
      mutationFn: (id: string) => api.post(`${path(id)}/remove_unfitting`, {}, typed<RemoveUnfittingReply>()),
      onSuccess: done,
    }),
    refresh: useMutation({
      mutationFn: (body: RefreshBody) => api.post('spotify/refresh', body, typed<RefreshReply>()),
      onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.spotify.sources(sudo) }),
    }),
  };
}
