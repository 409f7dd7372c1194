// The runs feature's calls: the list, one run (with its pool and last build), and the changes (each
// refreshes what it changed). A build answers with the run as built, which replaces the cached one.
import type { RunBody } from '@pacebeat/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../api/query-keys.ts';
import { useSession } from '../session/session-context.ts';

export function useRuns() {
  const { api, sudo } = useSession();
  return useQuery({ queryKey: queryKeys.runs.list(sudo), queryFn: () => api.call('runs.list') });
}

export function useRun(runId: string) {
  const { api, sudo } = useSession();
  return useQuery({
    queryKey: queryKeys.runs.one(sudo, runId),
    queryFn: () => api.call('runs.get', { params: { id: runId } }),
  });
}

export function useRunWrites() {
  const { api, sudo } = useSession();
  const client = useQueryClient();
  const changed = () => client.invalidateQueries({ queryKey: queryKeys.runs.all(sudo) });
  const answered = (reply: { data: { run: { run_id: string } } }) => {
    client.setQueryData(queryKeys.runs.one(sudo, reply.data.run.run_id), reply);
    return client.invalidateQueries({ queryKey: queryKeys.runs.list(sudo) });
  };
  return {
    create: useMutation({
      mutationFn: (body: RunBody) => api.call('runs.create', { body }),
      onSuccess: answered,
    }),
    edit: useMutation({
      mutationFn: ({ id, body }: { id: string; body: RunBody }) =>
        api.call('runs.edit', { params: { id }, body }),
      onSuccess: answered,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api.call('runs.remove', { params: { id } }),
      onSuccess: changed,
    }),
    build: useMutation({
      mutationFn: (id: string) => api.call('runs.build', { params: { id } }),
      onSuccess: answered,
    }),
    send: useMutation({
      mutationFn: (id: string) => api.call('runs.send', { params: { id } }),
      onSuccess: answered,
    }),
  };
}
