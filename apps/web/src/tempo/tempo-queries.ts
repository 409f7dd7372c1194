// The tempo feature's server call: which tempo sources the footer must credit (public, server-wide).
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../api/query-keys.ts';
import { useApi } from '../session/session-context.ts';

/**
 * GET /api/tempo/credits, read once per app load: the answer changes only with the server's settings.
 * No sudo in the key: it is the same for every user.
 */
export function useTempoCredits() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.tempoCredits,
    queryFn: () => api.call('tempo.credits'),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}
