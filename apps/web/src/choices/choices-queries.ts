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
import { typed } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { useSession } from '../session/session-context.ts';

/** Rows per page of every list. */
export const PAGE_SIZE = 25;

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

export function useCorrectTempo() {
  const { api } = useSession();
  return useChoiceMutation((v: { recordingKey: string; body: TempoCorrectionBody }) =>
    api.put(recordingPath(v.recordingKey), v.body, typed<TempoCorrectionReply>()),
  );
}

export function useUndoCorrection() {
  const { api } = useSession();
  return useChoiceMutation((recordingKey: string) =>
    api.delete(recordingPath(recordingKey), typed<UndoReply>()),
  );
}

export function useExclude() {
  const { api } = useSession();
  return useChoiceMutation((v: { kind: ExclusionKind; key: string; body: ExclusionBody }) =>
    api.put(exclusionPath(v.kind, v.key), v.body, typed<ExclusionReply>()),
  );
}

export function useRestore() {
  const { api } = useSession();
  return useChoiceMutation((v: { kind: ExclusionKind; key: string }) =>
    api.delete(exclusionPath(v.kind, v.key), typed<UndoReply>()),
  );
}
