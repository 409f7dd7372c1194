import type {
  ExclusionBody,
  ExclusionKind,
  MeterCorrectionBody,
  TempoCorrectionBody,
  TrackList,
} from '@pacebeat/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../api/client.ts';
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
      api.call('choices.targetTracks', {
        params: { targetId },
        query: { list, offset, limit: PAGE_SIZE },
      }),
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
    queryFn: () => api.call('choices.exclusions', { query: { offset, limit: PAGE_SIZE } }),
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

/** The choice calls, each the inverse of another (the snackbar's Undo makes the inverse call). */
export const choiceCalls = (api: ApiClient) => ({
  correct: (recordingKey: string, body: TempoCorrectionBody) =>
    api.call('choices.correctTempo', { params: { recordingKey }, body }),
  uncorrect: (recordingKey: string) => api.call('choices.undoCorrection', { params: { recordingKey } }),
  correctMeter: (recordingKey: string, body: MeterCorrectionBody) =>
    api.call('choices.correctMeter', { params: { recordingKey }, body }),
  uncorrectMeter: (recordingKey: string) =>
    api.call('choices.undoMeterCorrection', { params: { recordingKey } }),
  exclude: (kind: ExclusionKind, key: string, body: ExclusionBody) =>
    api.call('choices.exclude', { params: { kind, key }, body }),
  restore: (kind: ExclusionKind, key: string) => api.call('choices.restore', { params: { kind, key } }),
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

export function useCorrectMeter() {
  const { api } = useSession();
  return useChoiceMutation((v: { recordingKey: string; body: MeterCorrectionBody }) =>
    choiceCalls(api).correctMeter(v.recordingKey, v.body),
  );
}

export function useUndoMeterCorrection() {
  const { api } = useSession();
  return useChoiceMutation((recordingKey: string) => choiceCalls(api).uncorrectMeter(recordingKey));
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
