import type { ExclusionKind } from '@pacebeat/contract';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import { useState } from 'react';
import { choiceCalls, useExclude } from '../../choices/choices-queries.ts';
import { useConfirmChoice } from '../../choices/UndoSnackbar.tsx';
import { useSession } from '../../session/session-context.ts';

export interface ExcludeTarget {
  kind: ExclusionKind;
  key: string;
  label: string;
}

/** Confirms excluding a track or an artist from every target, optionally removing what Pacebeat added. */
export function ExcludeDialog({ what, onClose }: { what: ExcludeTarget; onClose: () => void }) {
  const [remove, setRemove] = useState(false);
  const exclude = useExclude();
  const { api } = useSession();
  const confirm = useConfirmChoice();
  const name = <bdi>{what.label}</bdi>;
  const title = what.kind === 'artist' ? <>Exclude the artist “{name}”?</> : <>Exclude “{name}”?</>;
  return (
    <Dialog open onClose={onClose} aria-labelledby="exclude-title" fullWidth maxWidth="xs">
      <DialogTitle id="exclude-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {what.kind === 'artist'
            ? 'Pacebeat will not add any of their songs to your running playlists.'
            : 'Pacebeat will not add this song to any of your running playlists.'}{' '}
          You can restore it from the Excluded list.
        </DialogContentText>
        <FormControlLabel
          sx={{ mt: 1 }}
          control={<Checkbox checked={remove} onChange={(e) => setRemove(e.target.checked)} />}
          label="Also remove what Pacebeat added of it from your playlists (songs you added yourself stay)"
        />
        {exclude.error && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {exclude.error.message}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={exclude.isPending}
          onClick={() =>
            exclude.mutate(
              { kind: what.kind, key: what.key, body: { remove_from_targets: remove } },
              {
                onSuccess: () => {
                  onClose();
                  confirm({
                    message:
                      what.kind === 'artist' ? (
                        <>The artist “{name}” is excluded.</>
                      ) : (
                        <>“{name}” is excluded.</>
                      ),
                    undo: () => choiceCalls(api).restore(what.kind, what.key),
                  });
                },
              },
            )
          }
        >
          Exclude
        </Button>
      </DialogActions>
    </Dialog>
  );
}
