import { PingReply } from '@pacebeat/contract';
import Button from '@mui/material/Button';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { queryKeys } from '../api/query-keys.ts';
import { useSession } from '../session/session-context.ts';

/** /ping (spec §2): a button labelled with the ping message; clicking it pings again. */
export function PingPage() {
  const { api, sudo } = useSession();
  const ping = useQuery({
    queryKey: queryKeys.ping(sudo),
    queryFn: () => api.get('ping', PingReply),
    retry: false,
  });

  useEffect(() => {
    // Spec §8: a ping failure is only logged.
    if (ping.error) console.error('GET /api/ping failed:', ping.error);
  }, [ping.error]);

  return (
    <Button variant="contained" onClick={() => void ping.refetch()} disabled={ping.isFetching}>
      {ping.data?.message ?? '…'}
    </Button>
  );
}
