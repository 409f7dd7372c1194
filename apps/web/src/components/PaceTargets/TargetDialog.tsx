import type { NewTargetBody, Target, TargetFilters } from '@pacebeat/contract';
import { TARGET_BPM_MAX, TARGET_BPM_MIN, TARGET_NAME_MAX } from '@pacebeat/contract';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useState } from 'react';
import { PresetPicker } from './PresetPicker.tsx';

/** Minutes as typed ("3.5", "") → seconds, null for none; undefined when it is not a number. */
function minutesToSeconds(text: string): number | null | undefined {
  if (text.trim() === '') return null;
  const n = Number(text.replace(',', '.'));
  return Number.isFinite(n) && n >= 0 && n <= 60 ? Math.round(n * 60) : undefined;
}
const secondsToMinutes = (s: number | null | undefined) => (s == null ? '' : String(+(s / 60).toFixed(2)));

export interface TargetDialogProps {
  open: boolean;
  /** The target to edit; absent: a new one. */
  target?: Target;
  busy: boolean;
  /** The server's refusal, shown as it is (a plain message). */
  error: string | null;
  onSave: (body: NewTargetBody) => void;
  onClose: () => void;
}

/** Adding or editing a target: its name, BPM range (or a preset by cadence or pace) and its filters. */
export function TargetDialog(props: TargetDialogProps) {
  const t = props.target;
  const titleId = useId();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const [name, setName] = useState(t?.target ?? '');
  const [min, setMin] = useState(String(t?.bpms.min ?? 165));
  const [max, setMax] = useState(String(t?.bpms.max ?? 175));
  const f: Partial<TargetFilters> = t?.filters ?? {};
  const [noExplicit, setNoExplicit] = useState(f.no_explicit ?? false);
  const [likedOnly, setLikedOnly] = useState(f.liked_only ?? false);
  const [shortest, setShortest] = useState(secondsToMinutes(f.min_duration_s));
  const [longest, setLongest] = useState(secondsToMinutes(f.max_duration_s));

  const minN = Number(min);
  const maxN = Number(max);
  const bpmOk = (n: number) => Number.isFinite(n) && n >= TARGET_BPM_MIN && n <= TARGET_BPM_MAX;
  const rangeError =
    !bpmOk(minN) || !bpmOk(maxN)
      ? `From ${TARGET_BPM_MIN} to ${TARGET_BPM_MAX} BPM.`
      : minN >= maxN
        ? 'The lowest BPM must be below the highest.'
        : null;
  const minS = minutesToSeconds(shortest);
  const maxS = minutesToSeconds(longest);
  const durationError =
    minS === undefined || maxS === undefined
      ? 'Minutes, from 0 to 60.'
      : minS !== null && maxS !== null && minS > maxS
        ? 'The shortest must not exceed the longest.'
        : null;
  const nameError = name.trim().length > TARGET_NAME_MAX ? `At most ${TARGET_NAME_MAX} characters.` : null;
  const invalid = Boolean(rangeError || durationError || nameError);

  function save() {
    if (invalid) return;
    props.onSave({
      // An unchanged name is left out, so a name that says the range follows a new range.
      ...(name.trim() && name.trim() !== t?.target ? { name: name.trim() } : {}),
      min_bpm: minN,
      max_bpm: maxN,
      filters: {
        no_explicit: noExplicit,
        liked_only: likedOnly,
        min_duration_s: minS ?? null,
        max_duration_s: maxS ?? null,
      },
    });
  }

  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      fullScreen={phone}
    >
      <DialogTitle id={titleId}>{t ? 'Edit pace' : 'Add a pace'}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <PresetPicker
            onPick={(p) => {
              setMin(String(p.min));
              setMax(String(p.max));
              if (!t) setName(p.name);
            }}
          />
          <TextField
            label="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            helperText={
              nameError ??
              (t ? 'Also the name of its Spotify playlist.' : 'Empty: “Pacebeat {min}–{max} BPM”.')
            }
            error={Boolean(nameError)}
            slotProps={{ htmlInput: { maxLength: TARGET_NAME_MAX + 10 } }}
          />
          <Stack direction="row" spacing={2}>
            <TextField
              label="Lowest BPM"
              type="number"
              value={min}
              onChange={(e) => setMin(e.target.value)}
              error={Boolean(rangeError)}
              slotProps={{ htmlInput: { min: TARGET_BPM_MIN, max: TARGET_BPM_MAX, step: 1 } }}
              fullWidth
            />
            <TextField
              label="Highest BPM"
              type="number"
              value={max}
              onChange={(e) => setMax(e.target.value)}
              error={Boolean(rangeError)}
              helperText={rangeError ?? 'Up to, not including.'}
              slotProps={{ htmlInput: { min: TARGET_BPM_MIN, max: TARGET_BPM_MAX, step: 1 } }}
              fullWidth
            />
          </Stack>
          <Typography variant="subtitle2" component="h3">
            Filters
          </Typography>
          <FormControlLabel
            control={<Switch checked={noExplicit} onChange={(e) => setNoExplicit(e.target.checked)} />}
            label="No explicit tracks"
          />
          <FormControlLabel
            control={<Switch checked={likedOnly} onChange={(e) => setLikedOnly(e.target.checked)} />}
            label="Only songs from Liked Songs"
          />
          <Stack direction="row" spacing={2}>
            <TextField
              label="Shortest (minutes)"
              value={shortest}
              onChange={(e) => setShortest(e.target.value)}
              error={Boolean(durationError)}
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
              fullWidth
            />
            <TextField
              label="Longest (minutes)"
              value={longest}
              onChange={(e) => setLongest(e.target.value)}
              error={Boolean(durationError)}
              helperText={durationError ?? 'Empty: no limit.'}
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
              fullWidth
            />
          </Stack>
          {t && (
            <Typography variant="body2" color="text.secondary">
              A new range or looser filters add the songs that now fit. Songs already in the playlist stay;
              “Remove what no longer fits” takes out those Pacebeat added.
            </Typography>
          )}
          {props.error && <Alert severity="error">{props.error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button onClick={save} variant="contained" disabled={invalid || props.busy}>
          {t ? 'Save' : 'Add'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
