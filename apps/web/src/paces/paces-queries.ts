// The paces feature's calls: the targets and sources (the status page's own queries), the
// tempo chart's data, and the writes (each refreshes what it changed).
import type { NewTargetBody, RefreshBody, TargetEditBody } from '@pacebeat/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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
    queryFn: () => api.call('library.tempoHistogram'),
    refetchInterval: RELOAD_MS,
  });
  return { targets, sources, histogram };
}

export function usePacesWrites() {
  const { api, sudo } = useSession();
  const client = useQueryClient();
  const done = () => client.invalidateQueries({ queryKey: queryKeys.spotify.targets(sudo) });
  return {
    add: useMutation({
      mutationFn: (body: NewTargetBody) => api.call('targets.add', { body }),
      onSuccess: done,
    }),
    edit: useMutation({
      mutationFn: ({ id, body }: { id: string; body: TargetEditBody }) =>
        api.call('targets.edit', { params: { id }, body }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api.call('targets.remove', { params: { id } }),
      onSuccess: done,
    }),
    removeUnfitting: useMutation({
      mutationFn: (id: string) => api.call('targets.removeUnfitting', { params: { id } }),
      onSuccess: done,
    }),
    refresh: useMutation({
      mutationFn: (body: RefreshBody) => api.call('library.refresh', { body }),
      onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.spotify.sources(sudo) }),
    }),
  };
}
