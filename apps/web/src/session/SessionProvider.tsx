import { SudoQuery } from '@pacebeat/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { createApiClient } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { SessionContext } from './session-context.ts';
import { readWhoami, VISITOR, type Session } from './user-status.ts';

/** Retry a failed whoami after 10 s (spec §4, §9). */
const RETRY_AFTER_ERROR_MS = 10_000;

function sudoFrom(params: URLSearchParams): string | null {
  const parsed = SudoQuery.safeParse({ sudo: params.get('sudo') ?? undefined });
  return parsed.success ? (parsed.data.sudo ?? null) : null;
}

/**
 * Holds the user status in one place for every screen. Must sit inside the router: it reads `?sudo=`
 * (kept for the rest of the visit once seen, since in-app links do not carry it) and `?refresh`
 * (re-read the session, then drop the flag from the URL).
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();

  const urlSudo = sudoFrom(params);
  const [sudo, setSudo] = useState(urlSudo);
  if (urlSudo !== null && urlSudo !== sudo) setSudo(urlSudo);

  const api = useMemo(() => createApiClient({ sudo }), [sudo]);
  const whoami = useQuery({
    queryKey: queryKeys.session.whoami(sudo),
    queryFn: () => readWhoami(api),
    retry: false,
    refetchInterval: (query) => (query.state.status === 'error' ? RETRY_AFTER_ERROR_MS : false),
  });

  const requestRefresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.session.all });
  }, [queryClient]);
  const markUnauthenticated = useCallback(() => {
    queryClient.setQueryData(queryKeys.session.whoami(sudo), VISITOR);
  }, [queryClient, sudo]);

  const refreshInUrl = params.has('refresh');
  useEffect(() => {
    if (!refreshInUrl) return;
    requestRefresh();
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('refresh');
        return next;
      },
      { replace: true },
    );
  }, [refreshInUrl, requestRefresh, setParams]);

  const data = whoami.data;
  const session = useMemo<Session>(
    () => ({
      dataReady: !whoami.isPending,
      errorBackend: whoami.isError,
      isAuthenticated: data?.authenticated ?? false,
      user: data?.user ?? null,
      services: data?.services ?? {},
      disabled_services: data?.disabled_services ?? [],
      sudo,
      refresh: whoami.isFetching && !whoami.isPending,
      api,
      requestRefresh,
      markUnauthenticated,
    }),
    [
      whoami.isPending,
      whoami.isFetching,
      whoami.isError,
      data,
      sudo,
      api,
      requestRefresh,
      markUnauthenticated,
    ],
  );

  return <SessionContext value={session}>{children}</SessionContext>;
}
