import { SUDO_MAX_LENGTH } from '@pacebeat/contract/rules';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { createApiClient, isApiError } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { RETRY_AFTER_ERROR_MS } from '../timing.ts';
import { SessionContext } from './session-context.ts';
import { readWhoami } from './session-queries.ts';
import { VISITOR, type Session } from './user-status.ts';

function sudoFrom(params: URLSearchParams): string | null {
  // The contract's SudoQuery rule (trimmed, 1 to 320 characters); anything else is no sudo at all.
  const sudo = params.get('sudo')?.trim();
  return sudo && sudo.length <= SUDO_MAX_LENGTH ? sudo : null;
}

/** A refused `?sudo=` (not an admin, or no such user): a 4xx that is final, not a backend failure. */
const isSudoRefusal = (error: unknown) => isApiError(error) && (error.status === 403 || error.status === 404);

/**
 * Holds the user status in one place for every screen. Must sit inside the router: it reads `?sudo=`
 * (the URL is the one source of sudo mode: in-app links keep it, see sudo-navigation.tsx) and `?refresh`
 * (re-read the session, then drop the flag from the URL).
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();

  const sudo = sudoFrom(params);
  const api = useMemo(() => createApiClient({ sudo }), [sudo]);
  const whoami = useQuery({
    queryKey: queryKeys.session.whoami(sudo),
    queryFn: () => readWhoami(api),
    retry: false,
    // A failed whoami is retried after 10 s, except a refused sudo, which no retry will change.
    refetchInterval: (query) =>
      query.state.status === 'error' && !(sudo && isSudoRefusal(query.state.error))
        ? RETRY_AFTER_ERROR_MS
        : false,
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
  const sudoRefused = sudo && whoami.isError && isSudoRefusal(whoami.error) ? whoami.error.message : null;
  const session = useMemo<Session>(
    () => ({
      dataReady: !whoami.isPending,
      errorBackend: whoami.isError && sudoRefused === null,
      sudoRefused,
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
      sudoRefused,
      data,
      sudo,
      api,
      requestRefresh,
      markUnauthenticated,
    ],
  );

  return <SessionContext value={session}>{children}</SessionContext>;
}
