import type { NewTargetBody, RefreshReply, Target } from '@pacebeat/contract';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { plainMessage } from '../api/plain-message.ts';
import { ConfirmDialog } from '../components/PaceTargets/ConfirmDialog.tsx';
import { PaceTargetList } from '../components/PaceTargets/PaceTargetList.tsx';
import { usePacesData, usePacesWrites } from '../paces/paces-queries.ts';
import { TargetDialog } from '../components/PaceTargets/TargetDialog.tsx';
import { RefreshPanel } from '../components/RefreshPanel/RefreshPanel.tsx';
import { StillLoading } from '../components/StillLoading/StillLoading.tsx';
import { useSession } from '../session/session-context.ts';
import { SudoLink, SudoNavigate } from '../session/sudo-navigation.tsx';
import { MUSIC_SERVICE } from '../session/user-status.ts';

// The chart library is loaded only when the chart is shown.
const TempoChart = lazy(() => import('../components/TempoChart/TempoChart.tsx'));

// Never a raw validation text: what the API says in plain words, else a plain sentence.
const messageOf = (e: unknown) => plainMessage(e);

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replaceAll(' ', '-')}`;
  return (
    <Stack component="section" spacing={1.5} aria-labelledby={id}>
      <Typography variant="h2" id={id}>
        {title}
      </Typography>
      {children}
    </Stack>
  );
}

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete' | 'prune'; target: Target } | null;

/**
 * /paces (beside the spec's pages): the runner's targets (add, edit with presets and filters,
 * delete, remove what no longer fits), their library's tempo chart, and "refresh now". Sudo reads only.
 */
export function PacesPage() {
  const session = useSession();
  const { targets, sources, histogram } = usePacesData();
  const writes = usePacesWrites();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [note, setNote] = useState<string | null>(null);
  const [refreshed, setRefreshed] = useState<RefreshReply['data'] | null>(null);
  const readOnly = Boolean(session.sudo);

  if (!session.dataReady) return null;
  if (!session.isAuthenticated) return <SudoNavigate to="/" />;
  if (!session.services[MUSIC_SERVICE]?.connected) return <SudoNavigate to={`/connect/${MUSIC_SERVICE}`} />;

  const list = targets.data?.data.targets;
  const save = writes.add.isPending || writes.edit.isPending;
  const saveError = writes.add.error ?? writes.edit.error;
  const close = () => {
    writes.add.reset();
    writes.edit.reset();
    setDialog(null);
  };
  /** Settles when the call does (the dialog takes no second click until then); failures show in it. */
  async function onSave(body: NewTargetBody) {
    try {
      if (dialog?.kind === 'edit') {
        await writes.edit.mutateAsync({ id: dialog.target.target_id, body });
        setNote('Saved. New matches are placed shortly.');
      } else {
        await writes.add.mutateAsync(body);
        setNote('Added. Its playlist appears with its first songs.');
      }
      close();
    } catch {
      // The mutation's error is shown in the dialog, under the field it concerns.
    }
  }

  return (
    <Stack spacing={{ xs: 3, sm: 4 }}>
      <Stack spacing={0.5}>
        <Typography variant="h1">Your paces</Typography>
        <Typography color="text.secondary">
          Each pace is a playlist in your Spotify account, filled with your songs at its tempo, or half or
          double it. Ranges may overlap. <SudoLink to="/">Back to main page</SudoLink>
        </Typography>
      </Stack>
      {readOnly && <Alert severity="info">Viewing only: changes are disabled in sudo mode.</Alert>}
      {note && (
        <Alert severity="success" onClose={() => setNote(null)}>
          {note}
        </Alert>
      )}
      <Section title="Paces">
        {!readOnly && (
          <Button
            variant="contained"
            onClick={() => setDialog({ kind: 'add' })}
            sx={{ alignSelf: 'flex-start' }}
          >
            Add a pace
          </Button>
        )}
        {targets.isPending && <StillLoading text="Please wait... Still loading..." />}
        {targets.error && <Alert severity="error">{messageOf(targets.error)}</Alert>}
        {list && (
          <PaceTargetList
            targets={list}
            readOnly={readOnly}
            onEdit={(t) => setDialog({ kind: 'edit', target: t })}
            onDelete={(t) => setDialog({ kind: 'delete', target: t })}
            onRemoveUnfitting={(t) => setDialog({ kind: 'prune', target: t })}
          />
        )}
      </Section>
      <Section title="Your library's tempo">
        {histogram.data && list ? (
          <Suspense fallback={<StillLoading text="Loading the chart..." />}>
            <TempoChart histogram={histogram.data.data} targets={list} />
          </Suspense>
        ) : histogram.error ? (
          <Alert severity="error">{messageOf(histogram.error)}</Alert>
        ) : null}
      </Section>
      <Section title="Refresh now">
        <Typography color="text.secondary">
          Pacebeat rescans your library every few hours. Ask for it now after you liked new songs.
        </Typography>
        <RefreshPanel
          sources={sources.data?.data.sources ?? []}
          readOnly={readOnly}
          busy={writes.refresh.isPending}
          result={refreshed}
          error={writes.refresh.error ? messageOf(writes.refresh.error) : null}
          onRefresh={(body) => writes.refresh.mutate(body, { onSuccess: (r) => setRefreshed(r.data) })}
        />
      </Section>

      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <TargetDialog
          open
          {...(dialog.kind === 'edit' ? { target: dialog.target } : {})}
          busy={save}
          error={saveError}
          onSave={onSave}
          onClose={close}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          open
          title={
            <>
              Delete “<bdi>{dialog.target.target}</bdi>”?
            </>
          }
          confirm="Delete"
          busy={writes.remove.isPending}
          onClose={() => setDialog(null)}
          onConfirm={() =>
            writes.remove.mutate(dialog.target.target_id, {
              onSuccess: () => (
                setNote('Deleted. Its playlist stays in your Spotify account.'),
                setDialog(null)
              ),
            })
          }
        >
          Pacebeat stops updating it. The playlist and its songs stay in your Spotify account: delete it there
          if you no longer want it.
        </ConfirmDialog>
      )}
      {dialog?.kind === 'prune' && (
        <ConfirmDialog
          open
          title={
            <>
              Remove from “<bdi>{dialog.target.target}</bdi>” what no longer fits?
            </>
          }
          confirm="Remove them"
          busy={writes.removeUnfitting.isPending}
          onClose={() => setDialog(null)}
          onConfirm={() =>
            writes.removeUnfitting.mutate(dialog.target.target_id, {
              onSuccess: () => (
                setNote('Pacebeat removes the songs it added that no longer fit, shortly.'),
                setDialog(null)
              ),
            })
          }
        >
          Pacebeat takes out of the playlist the songs it added that no longer fit this pace&apos;s range and
          filters. Songs you added yourself stay, and so does everything that still fits.
        </ConfirmDialog>
      )}
    </Stack>
  );
}
