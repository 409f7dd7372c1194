import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import {
  choiceCalls,
  lastPageOffset,
  PAGE_SIZE,
  useExclusions,
  useRestore,
} from '../choices/choices-queries.ts';
import { pastTheEnd } from '../choices/choices-texts.ts';
import { UndoSnackbarProvider, useConfirmChoice } from '../choices/UndoSnackbar.tsx';
import { Pager } from '../components/Pager/Pager.tsx';
import { READ_ONLY_REASON } from '../session/read-only.ts';
import { RequireSignIn } from '../session/RequireSignIn.tsx';
import { useSession } from '../session/session-context.ts';
import { SudoLink } from '../session/sudo-navigation.tsx';
import { shortTime } from '../status/status-format.ts';

/**
 * /excluded: every excluded track and artist, each restorable (not in sudo mode), with
 * Undo after a restore. A visitor is sent to /login.
 */
export function ExcludedPage() {
  return (
    <RequireSignIn>
      <UndoSnackbarProvider>
        <Excluded />
      </UndoSnackbarProvider>
    </RequireSignIn>
  );
}

function Excluded() {
  const [offset, setOffset] = useState(0);
  const { sudo, api } = useSession();
  const q = useExclusions(offset);
  const restore = useRestore();
  const confirm = useConfirmChoice();
  const data = q.data?.data;
  // A restore may empty the last page: go to the new last one.
  const beyond = data && !q.isPlaceholderData && data.exclusions.length === 0 && data.total > 0 && offset > 0;
  const last = data ? lastPageOffset(data.total, PAGE_SIZE) : 0;
  if (beyond && offset !== last) setOffset(last);
  return (
    <Stack spacing={2}>
      <Link component={SudoLink} to="/" sx={{ alignSelf: 'flex-start' }}>
        Back to main page
      </Link>
      <Typography variant="h1">Excluded tracks and artists</Typography>
      <Typography color="text.secondary">
        Pacebeat adds none of these to your running playlists. Restore one and Pacebeat may place it again.
      </Typography>
      {sudo && <Alert severity="info">{READ_ONLY_REASON}</Alert>}
      {(q.error ?? restore.error) && <Alert severity="error">{(q.error ?? restore.error)!.message}</Alert>}
      {data && data.total === 0 && (
        <Typography color="text.secondary">
          Nothing is excluded. You can exclude a track or an artist from a playlist’s page.
        </Typography>
      )}
      {data && data.total > 0 && data.exclusions.length === 0 && (
        <Typography color="text.secondary">{pastTheEnd(data.total)}</Typography>
      )}
      {data && data.exclusions.length > 0 && (
        <Box
          component="ul"
          aria-label="Excluded"
          sx={{ p: 0, m: 0, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper' }}
        >
          {data.exclusions.map((e) => (
            <Stack
              component="li"
              key={`${e.kind}:${e.key}`}
              direction="row"
              spacing={1}
              sx={{ py: 1.5, px: 2, borderBottom: 1, borderColor: 'divider', alignItems: 'center' }}
            >
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  <bdi>{e.label}</bdi>
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                  {e.kind === 'artist' ? (
                    'Artist'
                  ) : (
                    <>
                      Track · <bdi>{e.detail}</bdi>
                    </>
                  )}{' '}
                  · excluded {shortTime(e.created_at)}
                </Typography>
              </Box>
              {!sudo && (
                <Button
                  size="small"
                  variant="outlined"
                  aria-label={`Restore ${e.label}`}
                  disabled={restore.isPending}
                  onClick={() =>
                    restore.mutate(
                      { kind: e.kind, key: e.key },
                      {
                        onSuccess: () =>
                          confirm({
                            message: (
                              <>
                                “<bdi>{e.label}</bdi>” is restored.
                              </>
                            ),
                            undo: () =>
                              choiceCalls(api).exclude(e.kind, e.key, { remove_from_targets: false }),
                          }),
                      },
                    )
                  }
                >
                  Restore
                </Button>
              )}
            </Stack>
          ))}
        </Box>
      )}
      {data && (
        <Pager
          label="Pages of excluded tracks and artists"
          offset={offset}
          shown={data.exclusions.length}
          total={data.total}
          pageSize={PAGE_SIZE}
          nextOffset={data.next_offset}
          onOffset={setOffset}
        />
      )}
    </Stack>
  );
}
