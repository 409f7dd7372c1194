import type { TrackRow } from '@pacebeat/contract';
import { CORRECTION_MAX_BPM, CORRECTION_MIN_BPM } from '@pacebeat/contract/rules';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type KeyboardEvent } from 'react';
import { choiceCalls, useCorrectTempo, useUndoCorrection } from '../../choices/choices-queries.ts';
import { bpmText, currentTempoText } from '../../choices/choices-texts.ts';
import { addTap, bpmFromTaps, MIN_TAPS } from '../../choices/tap-tempo.ts';
import { useConfirmChoice } from '../../choices/UndoSnackbar.tsx';
import { useSession } from '../../session/session-context.ts';
import { MUSIC_SERVICE } from '../../session/user-status.ts';
import { MeterChoice } from './MeterChoice.tsx';

const round1 = (x: number) => Math.round(x * 10) / 10;

/** Spotify's own embed player for one track (the CSP frames open.spotify.com with a real Spotify). */
export const embedUrl = (trackId: string) =>
  `https://open.spotify.com/embed/track/${encodeURIComponent(trackId)}`;

/** What the runner taps along with: Spotify's player, or (demo mode) why there is nothing to hear. */
function Player({ track }: { track: TrackRow }) {
  const { services } = useSession();
  if (services[MUSIC_SERVICE]?.demo) {
    return (
      <Typography variant="body2" color="text.secondary" data-testid="no-player">
        This song cannot be played here: in demo mode Spotify is simulated and its songs have no sound. Tap
        along with it in your head, or type its BPM.
      </Typography>
    );
  }
  return (
    <Box
      component="iframe"
      title={`Spotify player: ${track.title}`}
      src={embedUrl(track.track_id)}
      loading="lazy"
      allow="autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture"
      sx={{ width: '100%', height: 80, border: 0, borderRadius: 3, display: 'block' }}
    />
  );
}

/**
 * Fix a track's tempo: ×2, ÷2, type it, or tap along with the beat (the Tap button or the space bar); and
 * its meter ("This one is in 4/4"). The correction is the runner's and applies at once; removing the track from playlists it no longer fits
 * happens only when they tick the box.
 */
export function TempoDialog({ track, onClose }: { track: TrackRow; onClose: () => void }) {
  const current = track.corrected_bpm ?? track.bpm;
  const [value, setValue] = useState(current !== null ? String(current) : '');
  const [taps, setTaps] = useState<number[]>([]);
  const [remove, setRemove] = useState(false);
  const correct = useCorrectTempo();
  const undo = useUndoCorrection();
  const { api } = useSession();
  const confirm = useConfirmChoice();
  const calls = choiceCalls(api);
  const previous = track.corrected_bpm;
  const key = track.recording_key;
  const tapped = bpmFromTaps(taps);
  const bpm = Number(value);
  const valid = value.trim() !== '' && bpm >= CORRECTION_MIN_BPM && bpm <= CORRECTION_MAX_BPM;

  function tap() {
    const next = addTap(taps, performance.now());
    setTaps(next);
    const b = bpmFromTaps(next);
    if (b !== null) setValue(String(b));
  }
  // The space bar taps too, anywhere in the dialog but a field or a button (where it types or presses).
  function onKeyDown(e: KeyboardEvent) {
    if (e.key !== ' ' || (e.target as HTMLElement).closest('input, textarea, button, label')) return;
    e.preventDefault();
    if (!e.repeat) tap();
  }
  const error = correct.error ?? undo.error;

  return (
    <Dialog
      open
      onClose={onClose}
      onKeyDown={onKeyDown}
      aria-labelledby="tempo-title"
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id="tempo-title">
        Fix the tempo of “<bdi>{track.title}</bdi>”
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {currentTempoText(track)}
          </Typography>
          <Player track={track} />
          <Box
            sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, textAlign: 'center' }}
            aria-live="polite"
          >
            <Button variant="contained" size="large" onClick={tap} sx={{ minWidth: 160, minHeight: 64 }}>
              Tap
            </Button>
            <Typography variant="body2" sx={{ mt: 1 }} data-testid="tap-result">
              {tapped !== null
                ? `Tapped: ${bpmText(tapped)} BPM (${taps.length} taps)`
                : taps.length === 0
                  ? 'Tap along with the beat, or press the space bar.'
                  : `${MIN_TAPS - taps.length} more ${MIN_TAPS - taps.length === 1 ? 'tap' : 'taps'}…`}
            </Typography>
          </Box>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <TextField
              label="BPM"
              type="number"
              size="small"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              error={value.trim() !== '' && !valid}
              helperText={`${CORRECTION_MIN_BPM} to ${CORRECTION_MAX_BPM}`}
              slotProps={{ htmlInput: { min: CORRECTION_MIN_BPM, max: CORRECTION_MAX_BPM, step: 0.1 } }}
              sx={{ width: 120 }}
            />
            <Button
              disabled={!valid || bpm * 2 > CORRECTION_MAX_BPM}
              onClick={() => setValue(String(round1(bpm * 2)))}
            >
              ×2
            </Button>
            <Button
              disabled={!valid || bpm / 2 < CORRECTION_MIN_BPM}
              onClick={() => setValue(String(round1(bpm / 2)))}
            >
              ÷2
            </Button>
          </Stack>
          <FormControlLabel
            control={<Checkbox checked={remove} onChange={(e) => setRemove(e.target.checked)} />}
            label="Also remove it from the playlists it no longer fits (only what Pacebeat added)"
          />
          <MeterChoice track={track} onDone={onClose} removeFromOld={remove} />
          {error && <Alert severity="error">{error.message}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap' }}>
        {track.corrected_bpm !== null && (
          <Button
            color="inherit"
            disabled={undo.isPending}
            onClick={() =>
              undo.mutate(key, {
                onSuccess: () => {
                  onClose();
                  confirm({
                    message: (
                      <>
                        Your tempo for “<bdi>{track.title}</bdi>” is removed.
                      </>
                    ),
                    undo: () => calls.correct(key, { bpm: previous!, remove_from_old_targets: false }),
                  });
                },
              })
            }
            sx={{ mr: 'auto' }}
          >
            Undo my correction
          </Button>
        )}
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={!valid || correct.isPending}
          onClick={() =>
            correct.mutate(
              { recordingKey: key, body: { bpm, remove_from_old_targets: remove } },
              {
                onSuccess: () => {
                  onClose();
                  confirm({
                    message: (
                      <>
                        Tempo of “<bdi>{track.title}</bdi>” saved: {bpmText(bpm)} BPM.
                      </>
                    ),
                    // Undo puts back the runner's earlier tempo, or the sources' when there was none.
                    undo: () =>
                      previous !== null
                        ? calls.correct(key, { bpm: previous, remove_from_old_targets: false })
                        : calls.uncorrect(key),
                  });
                },
              },
            )
          }
        >
          Save tempo
        </Button>
      </DialogActions>
    </Dialog>
  );
}
