import type { SourcesReply, TargetsReply, Source, SourceChangeBody } from '@pacebeat/contract';
import { useMutation, useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { isApiError, type ApiClient } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { RETRY_AFTER_ERROR_MS } from '../timing.ts';
import { firstFillText } from './status-format.ts';
import { useSession } from '../session/session-context.ts';

/** After a successful load the status page reloads every 15 s (spec §4, §9). */
export const RELOAD_AFTER_SUCCESS_MS = 15_000;
/**
 * While the first fill is under way (no playlist exists yet), the targets are read every 5 s instead,
 * so the line saying how far it is shows within seconds of Proceed, and the first playlists,
 * which go out within 15 s of the first match, show within seconds too, not at the next 15 s poll. A new
 * runner's first minute or so only (at most FIRST_FILL_FAST_FOR_MS); then the spec's 15 s.
 */
export const FIRST_FILL_RELOAD_MS = 5_000;
/**
 * The 5 s reads last this long from the page's first one; then 15 s, even if the first fill is still under
 * way. A first fill that takes longer waits for a busy Spotify, and a page reading every 5 s meanwhile
 * only adds load: at 1,000 runners (bench:crowd) first playlists came after 13 minutes, and the pages
 * reading every 5 s until then were most of the serve process's ~200 reads a second.
 */
export const FIRST_FILL_FAST_FOR_MS = 2 * 60_000;

export const isUnauthorized = (error: unknown) => isApiError(error) && error.status === 401;

/**
 * The status page's timers (spec §4) as TanStack Query's `refetchInterval`: 15 s after a success, 10 s
 * after a failure that is not a 401, none after a 401. They stop when the page unmounts (no observer
 * left), and pause while a source switch is being saved, so a reload cannot undo its optimistic flip.
 */
function statusInterval(isSaving: () => boolean, soon?: (data: unknown) => boolean) {
  return (query: { state: Pick<Query['state'], 'status' | 'error' | 'data'> }): number | false => {
    if (query.state.status === 'error') {
      return isUnauthorized(query.state.error) ? false : RETRY_AFTER_ERROR_MS;
    }
    if (isSaving()) return false;
    return soon?.(query.state.data) ? FIRST_FILL_RELOAD_MS : RELOAD_AFTER_SUCCESS_MS;
  };
}

/**
 * For one open page: whether a first fill under way is still read every 5 s (for FIRST_FILL_FAST_FOR_MS
 * from the page's first 5 s read). Called by the queries' timers, not during render.
 */
function fastReads(): (underWay: boolean) => boolean {
  let since: number | null = null;
  return (underWay) => {
    if (!underWay) return false;
    since ??= Date.now();
    return Date.now() - since < FIRST_FILL_FAST_FOR_MS;
  };
}

/**
 * A first fill under way: the page says how far it is (firstFillText), so no playlist exists yet. This
 * includes the seconds before the writer's first plan (`first_fill` still null, no target written), so the
 * read right after Proceed is followed by another 5 s later, not 15 s.
 */
const firstFillUnderWay = (data: unknown) => {
  const reply = (data as TargetsReply | undefined)?.data;
  return reply !== undefined && firstFillText(reply.first_fill ?? null, reply.targets) !== null;
};

/**
 * The library summary still says nothing is read while a first fill runs or a playlist already has tracks:
 * the sources are then read every 5 s too, or the page would say "no songs found yet" beside filled
 * playlists until the next 15 s poll. Once songs show, 15 s.
 */
export const libraryBehind = (sources: unknown, targets: unknown) => {
  const summary = (sources as SourcesReply | undefined)?.data.summary;
  const list = (targets as TargetsReply | undefined)?.data.targets ?? [];
  return (
    summary?.tracks_known === 0 &&
    (firstFillUnderWay(targets) || list.some((t) => (t.stats?.tracks_added ?? 0) > 0))
  );
};

/** GET targets of the signed-in user (or the sudo user): one query, shared by the status and paces pages. */
export const targetsQuery = (api: ApiClient, sudo: string | null) => ({
  queryKey: queryKeys.spotify.targets(sudo),
  queryFn: () => api.call('targets.list'),
});

/** GET sources, shared the same way. */
export const sourcesQuery = (api: ApiClient, sudo: string | null) => ({
  queryKey: queryKeys.spotify.sources(sudo),
  queryFn: () => api.call('library.sources'),
});

/**
 * GET targets and GET sources of the signed-in user (spec §7), with the spec's timing. A 401 marks the
 * user signed out and re-reads the session (spec §8); other failures are logged and retried.
 */
export function useStatusData() {
  const { api, sudo, markUnauthenticated, requestRefresh } = useSession();
  const queryClient = useQueryClient();
  const isSaving = () => queryClient.isMutating({ mutationKey: queryKeys.spotify.sourceChange(sudo) }) > 0;
  const common = { retry: false, refetchInterval: statusInterval(isSaving) } as const;
  const [fastWhile] = useState(fastReads);

  const targets = useQuery({
    ...common,
    refetchInterval: statusInterval(isSaving, (data) => fastWhile(firstFillUnderWay(data))),
    ...targetsQuery(api, sudo),
  });
  const sources = useQuery({
    ...common,
    refetchInterval: statusInterval(isSaving, (data) =>
      fastWhile(libraryBehind(data, queryClient.getQueryData(queryKeys.spotify.targets(sudo)))),
    ),
    ...sourcesQuery(api, sudo),
  });

  const unauthorized = isUnauthorized(targets.error) || isUnauthorized(sources.error);
  useEffect(() => {
    if (!unauthorized) return;
    markUnauthenticated();
    requestRefresh();
  }, [unauthorized, markUnauthenticated, requestRefresh]);

  const failure = [targets.error, sources.error].find((e) => e && !isUnauthorized(e));
  useEffect(() => {
    if (failure) console.error('loading the status failed:', failure);
  }, [failure]);

  return {
    targets: targets.data?.data.targets,
    /** How far the first fill is, while the runner has no playlist yet. */
    firstFill: targets.data?.data.first_fill ?? null,
    sources: sources.data?.data.sources,
    summary: sources.data?.data.summary,
    /** Still waiting for a first answer of either call. */
    isLoading: targets.isPending || sources.isPending,
    /** The spec's backend error flag: the last load failed with something other than a 401. */
    errorBackend: Boolean(failure),
  };
}

function patchSource(reply: SourcesReply | undefined, body: SourceChangeBody, patch: Partial<Source>) {
  if (!reply) return reply;
  const sources = reply.data.sources.map((s) =>
    s.kind === body.kind && s.source_id === body.source_id ? { ...s, ...patch } : s,
  );
  return { ...reply, data: { ...reply.data, sources } };
}

/**
 * The Enabled switch of one source (spec §4, §7): flips at once (optimistic), and flips back when
 * POST source_change fails (spec §8: no message, only a log line). Each row has its own mutation, so
 * only that row's switch is disabled with a spinner while its call runs.
 */
export function useSourceChange() {
  const { api, sudo, markUnauthenticated, requestRefresh } = useSession();
  const queryClient = useQueryClient();
  const sourcesKey = queryKeys.spotify.sources(sudo);
  const mutationKey = queryKeys.spotify.sourceChange(sudo);

  return useMutation({
    mutationKey,
    mutationFn: (body: SourceChangeBody) => api.call('library.sourceChange', { body }),
    onMutate: async (body) => {
      await queryClient.cancelQueries({ queryKey: sourcesKey });
      const before = queryClient
        .getQueryData<SourcesReply>(sourcesKey)
        ?.data.sources.find((s) => s.kind === body.kind && s.source_id === body.source_id);
      queryClient.setQueryData<SourcesReply>(sourcesKey, (old) =>
        patchSource(old, body, { enabled: body.enabled }),
      );
      return { previousEnabled: before?.enabled ?? !body.enabled };
    },
    onError: (error, body, context) => {
      console.error('POST /api/spotify/source_change failed:', error);
      // Only this row goes back: another switch flipped meanwhile keeps its own state.
      queryClient.setQueryData<SourcesReply>(sourcesKey, (old) =>
        patchSource(old, body, { enabled: context?.previousEnabled ?? !body.enabled }),
      );
      if (isUnauthorized(error)) {
        markUnauthenticated();
        requestRefresh();
      }
    },
    onSuccess: (reply, body) => {
      queryClient.setQueryData<SourcesReply>(sourcesKey, (old) => patchSource(old, body, reply.data.source));
    },
    onSettled: () => {
      // The last change in flight re-reads the list (earlier ones would read a half-saved state).
      if (queryClient.isMutating({ mutationKey }) === 1) {
        void queryClient.invalidateQueries({ queryKey: sourcesKey });
      }
    },
  });
}
