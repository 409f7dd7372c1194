import type {
  ExclusionBody,
  ExclusionKind,
  ExclusionReply,
  ExclusionsReply,
  TargetTracksReply,
  TempoCorrectionBody,
  TempoCorrectionReply,
  TrackList,
  UndoReply,
} from '@pacebeat/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { typed, type ApiClient } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { useSession } from '../session/session-context.ts';

/** Rows per page of every list. */
export const PAGE_SIZE = 25;

/** The offset of the last page of a list of `total` rows (0 for an empty list). */
export const lastPageOffset = (total: number, pageSize: number) =>
  Math.max(0, Math.floor((total - 1) / pageSize) * pageSize);

/** One page of a target's placed, waiting or skipped tracks (server-paged). */
export function useTargetTracks(targetId: string, list: TrackList, offset: number) {
  const { api, sudo } = useSession();
  return useQuery({
    queryKey: queryKeys.choices.targetTracks(sudo, targetId, list, offset),
    queryFn: () =>
      api.get(
        `spotify/targets/${encodeURIComponent(targetId)}/tracks?list=${list}&offset=${offset}&limit=${PAGE_SIZE}`,
        typed<TargetTracksReply>(),
      ),
    placeholderData: keepPreviousData,
    // The writer keeps working: the lists follow it while the page is open. Waiting and skipped are
    // computed over the whole library on the server, so they are read again less often.
    refetchInterval: list === 'placed' ? 15_000 : 60_000,
    retry: false,
  });
}

/** One page of the Excluded list. */
export function useExclusions(offset: number) {
  const { api, sudo } = useSession();
  return useQuery({
    queryKey: queryKeys.choices.exclusions(sudo, offset),
    queryFn: () =>
      api.get(`spotify/exclusions?offset=${offset}&limit=${PAGE_SIZE}`, typed<ExclusionsReply>()),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** Every choice changes what the lists show: they are read again after it. */
function useChoiceMutation<V, R>(fn: (v: V) => Promise<R>) {
  const { sudo } = useSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.choices.all(sudo) }),
  });
}

const recordingPath = (key: string) => `spotify/tempo_corrections/${encodeURIComponent(key)}`;
const exclusionPath = (kind: ExclusionKind, key: string) =>
  `spotify/exclusions/${kind}/${encodeURIComponent(key)}`;

/** The four choice calls, each the inverse of another (the snackbar's Undo makes the inverse call). */
export const choiceCalls = (api: ApiClient) => ({
  correct: (recordingKey: string, body: TempoCorrectionBody) =>
    api.put(recordingPath(recordingKey), body, typed<TempoCorrectionReply>()),
  uncorrect: (recordingKey: string) => api.delete(recordingPath(recordingKey), typed<UndoReply>()),
  exclude: (kind: ExclusionKind, key: string, body: ExclusionBody) =>
    api.put(exclusionPath(kind, key), body, typed<ExclusionReply>()),
  restore: (kind: ExclusionKind, key: string) => api.delete(exclusionPath(kind, key), typed<UndoReply>()),
});

export function useCorrectTempo() {
  const { api } = useSession();
  return useChoiceMutation((v: { recordingKey: string; body: TempoCorrectionBody }) =>
    choiceCalls(api).correct(v.recordingKey, v.body),
  );
}

export function useUndoCorrection() {
  const { api } = useSession();
  return useChoiceMutation((recordingKey: string) => choiceCalls(api).uncorrect(recordingKey));
}

export function useExclude() {
  const { api } = useSession();
  return useChoiceMutation((v: { kind: ExclusionKind; key: string; body: ExclusionBody }) =>
    choiceCalls(api).exclude(v.kind, v.key, v.body),
  );
}

export function useRestore() {
  const { api } = useSession();
  return useChoiceMutation((v: { kind: ExclusionKind; key: string }) =>
    choiceCalls(api).restore(v.kind, v.key),
  );
}
