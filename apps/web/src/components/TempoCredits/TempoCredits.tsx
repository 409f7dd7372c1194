import { GETSONGBPM_URL } from '@pacebeat/contract/rules';
import Link from '@mui/material/Link';
import { useEffect, type ReactNode } from 'react';
import { useTempoCredits } from '../../tempo/tempo-queries.ts';

export const GETSONGBPM_CREDIT_TEXT = 'Tempo data from GetSongBPM';

/** GetSongBPM's terms require a visible link to their site wherever their data is used. */
export function GetSongBpmCredit() {
  return (
    <Link href={GETSONGBPM_URL} target="_blank" rel="noopener" color="inherit">
      {GETSONGBPM_CREDIT_TEXT}
    </Link>
  );
}

/**
 * The footer's attributions, from GET /api/tempo/credits. Read once per app load: the answer changes
 * only with the server's settings. A failed read shows no link and leaves the page alone.
 */
export function useTempoAttributions(): ReactNode {
  const credits = useTempoCredits();
  useEffect(() => {
    if (credits.error) console.error('GET /api/tempo/credits failed:', credits.error);
  }, [credits.error]);
  return credits.data?.data.getsongbpm ? <GetSongBpmCredit /> : undefined;
}
