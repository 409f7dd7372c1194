import type { RunBody } from '@pacebeat/contract';
import { formatDuration, spotifyLink } from '@pacebeat/contract/rules';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useParams } from 'react-router';
import { isApiError } from '../api/client.ts';
import { plainMessage } from '../api/plain-message.ts';
import { ConfirmDialog } from '../components/PaceTargets/ConfirmDialog.tsx';
import { SpotifyLogo } from '../components/SpotifyLogo/SpotifyLogo.tsx';
import { StillLoading } from '../components/StillLoading/StillLoading.tsx';
import { RunEditor } from '../runs/RunEditor.tsx';
import { RunTimeline } from '../runs/RunTimeline.tsx';
import { useRun, useRunWrites } from '../runs/runs-queries.ts';
import { RequireSignIn } from '../session/RequireSignIn.tsx';
import { useSession } from '../session/session-context.ts';
import { SudoLink, useSudoNavigate } from '../session/sudo-navigation.tsx';

/**
 * /runs/:runId: a run's plan, the songs of the library that fit each part (and where they are too few),
 * its last build as a timeline, and build, rebuild, send, open in Spotify, edit and delete.
 */
export function RunPage() {
  return (
    <RequireSignIn>
      <RunView />
    </RequireSignIn>
  );
}

function RunView() {
  const { runId = '' } = useParams();
  const { sudo } = useSession();
  const q = useRun(runId);
  const writes = useRunWrites();
  const navigate = useSudoNavigate();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  if (q.isPending) return <StillLoading text="Please wait... Still loading..." />;
  if (q.error)
    return (
      <Stack spacing={2}>
        <Alert severity={isApiError(q.error) && q.error.status === 404 ? 'info' : 'error'}>
          {plainMessage(q.error)}
        </Alert>
        <SudoLink to="/runs">Your runs</SudoLink>
      </Stack>
    );
  const run = q.data.data.run;
  const build = run.build;
  const link = spotifyLink(run.public_url);
  const busy = writes.build.isPending || writes.send.isPending;
  const writeError = writes.build.error ?? writes.send.error;
  const body: RunBody = {
    name: run.name,
    blocks: run.blocks,
    half_time: run.half_time,
    no_explicit: run.no_explicit,
    liked_only: run.liked_only,
  };

  return (
    <Stack spacing={{ xs: 3, sm: 4 }}>
      <Stack spacing={0.5}>
        <Typography variant="h1">
          <bdi>{run.name}</bdi>
        </Typography>
        <Typography color="text.secondary">
          {formatDuration(run.planned_s)}: <bdi>{run.description}</bdi>.{' '}
          <SudoLink to="/runs">Your runs</SudoLink>
        </Typography>
      </Stack>
      {sudo && <Alert severity="info">Viewing only: changes are disabled in sudo mode.</Alert>}
      {run.pool_notes.map((note) => (
        <Alert key={note} severity="warning">
          {note}
        </Alert>
      ))}

      {editing ? (
        <Stack component="section" spacing={1.5} aria-labelledby="edit-run">
          <Typography variant="h2" id="edit-run">
            Edit the run
          </Typography>
          <RunEditor
            initial={body}
            busy={writes.edit.isPending}
            error={writes.edit.error}
            saveLabel="Save the run"
            onSave={(b) =>
              writes.edit.mutate({ id: run.run_id, body: b }, { onSuccess: () => setEditing(false) })
            }
            onCancel={() => {
              writes.edit.reset();
              setEditing(false);
            }}
          />
        </Stack>
      ) : (
        !sudo && (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Button variant="contained" disabled={busy} onClick={() => writes.build.mutate(run.run_id)}>
              {build ? 'Rebuild' : 'Build'}
            </Button>
            <Button variant="outlined" onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button color="error" onClick={() => setDeleting(true)}>
              Delete
            </Button>
          </Stack>
        )
      )}
      {busy && <StillLoading text="Building from your songs and writing the playlist..." />}
      {writeError && <Alert severity="error">{plainMessage(writeError)}</Alert>}

      <Stack component="section" spacing={1.5} aria-labelledby="timeline">
        <Typography variant="h2" id="timeline">
          {build ? 'The run, song by song' : 'The plan'}
        </Typography>
        {build && (
          <Stack spacing={1}>
            <Typography role="status">
              {build.songs.length} songs, {formatDuration(build.total_s)} against{' '}
              {formatDuration(run.planned_s)} planned
              {build.songs.length > 0 && run.segments.length > 1
                ? `; every change of part within ${formatDuration(build.boundary_max_s)} of a song's start or end`
                : ''}
              .
            </Typography>
            {build.spotify.state === 'written' && link && (
              <Link href={link} target="_blank" rel="noopener noreferrer" sx={{ alignSelf: 'flex-start' }}>
                <SpotifyLogo /> Open “Pacebeat run: <bdi>{run.name}</bdi>” in Spotify
              </Link>
            )}
            {build.spotify.state !== 'written' && (
              <Alert
                severity={build.spotify.state === 'waiting' ? 'info' : 'warning'}
                action={
                  !sudo && (
                    <Button
                      color="inherit"
                      size="small"
                      disabled={busy}
                      onClick={() => writes.send.mutate(run.run_id)}
                    >
                      Send to Spotify
                    </Button>
                  )
                }
              >
                {build.spotify.message}
              </Alert>
            )}
          </Stack>
        )}
        <RunTimeline run={run} />
      </Stack>

      <ConfirmDialog
        open={deleting}
        title={
          <>
            Delete “<bdi>{run.name}</bdi>”?
          </>
        }
        confirm="Delete"
        busy={writes.remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() => writes.remove.mutate(run.run_id, { onSuccess: () => navigate('/runs') })}
      >
        Pacebeat forgets the run. Its playlist stays in your Spotify account: delete it there if you no longer
        want it.
      </ConfirmDialog>
    </Stack>
  );
}
