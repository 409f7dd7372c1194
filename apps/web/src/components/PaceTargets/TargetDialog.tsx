import type { NewTargetBody, OtherMeter, Target, TargetFilters } from '@pacebeat/contract';
import {
  TARGET_BPM_MAX,
  TARGET_BPM_MIN,
  TARGET_NAME_MAX_CODE_UNITS,
  OTHER_METERS,
  targetNameProblem,
} from '@pacebeat/contract/rules';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useEffect, useId, useRef, useState } from 'react';
import { isApiError } from '../../api/client.ts';
import { plainMessage } from '../../api/plain-message.ts';
import { METER_REASONS } from '../../choices/choices-texts.ts';
import { PresetPicker, type Preset } from './PresetPicker.tsx';

/** Minutes as typed ("3.5", "") → seconds, null for none; undefined when it is not a number. */
function minutesToSeconds(text: string): number | null | undefined {
  if (text.trim() === '') return null;
  const n = Number(text.replace(',', '.'));
  return Number.isFinite(n) && n >= 0 && n <= 60 ? Math.round(n * 60) : undefined;
}
const secondsToMinutes = (s: number | null | undefined) => (s == null ? '' : String(+(s / 60).toFixed(2)));

const bpmText = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
/** The server's name for a target without one (it follows the range, `targetName` in matching.ts). */
export const defaultName = (min: number, max: number) => `Pacebeat ${bpmText(min)}–${bpmText(max)} BPM`;
/** A name a preset gave ("Pace 5:00/km (166–176 BPM)", "Cadence 170 (165–175 BPM)"): it says its range. */
const PRESET_NAME = /^(Pace \d{1,2}:\d\d\/(km|mile)|Cadence \d+) \(\d+(\.\d)?–\d+(\.\d)? BPM\)$/;
const DEFAULT_NAME = /^Pacebeat \d+(\.\d)?–\d+(\.\d)? BPM$/;

/** The parts of the form a refusal can concern. */
type Part = 'name' | 'range' | 'duration' | 'form';
type Refusals = Partial<Record<Part, string>>;

function partOf(field: string): Part {
  if (field === 'name') return 'name';
  if (field === 'min_bpm' || field === 'max_bpm') return 'range';
  if (/^filters\.(min|max)_duration_s$/.test(field)) return 'duration';
  return 'form';
}

/** The server's refusal, placed: each sentence under the field it concerns, the rest above the form. */
export function placeRefusals(error: unknown): Refusals {
  if (!error) return {};
  if (isApiError(error) && error.fields.length > 0) {
    const placed: Refusals = {};
    for (const f of error.fields) {
      const part = partOf(f.field);
      if (!placed[part]?.includes(f.message))
        placed[part] = placed[part] ? `${placed[part]} ${f.message}` : f.message;
    }
    return placed;
  }
  if (isApiError(error) && error.code === 'TargetNameTaken') return { name: plainMessage(error) };
  return { form: plainMessage(error) };
}

export interface TargetDialogProps {
  open: boolean;
  /** The target to edit; absent: a new one. */
  target?: Target;
  busy: boolean;
  /** The server's refusal (an ApiError): its sentences are shown under their fields. */
  error: unknown;
  /** Sends the target; the dialog takes no second click until it settles. */
  onSave: (body: NewTargetBody) => Promise<unknown>;
  onClose: () => void;
}

/** Adding or editing a target: its name, BPM range (or a preset by cadence or pace) and its filters. */
export function TargetDialog(props: TargetDialogProps) {
  const t = props.target;
  const titleId = useId();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  // The runner's own name (null: none typed); until they type one, a preset's name is used while the
  // range is still the preset's, so a name that says "166–176 BPM" never goes out with other BPMs. A
  // stored name that says its range (a preset's or the default) is not the runner's own either.
  const rangeNamed = t !== undefined && (PRESET_NAME.test(t.target) || DEFAULT_NAME.test(t.target));
  const [typed, setTyped] = useState<string | null>(t && !rangeNamed ? t.target : null);
  const [preset, setPreset] = useState<Preset | null>(null);
  const [min, setMin] = useState(String(t?.bpms.min ?? 165));
  const [max, setMax] = useState(String(t?.bpms.max ?? 175));
  const f: Partial<TargetFilters> = t?.filters ?? {};
  const [noExplicit, setNoExplicit] = useState(f.no_explicit ?? false);
  const [likedOnly, setLikedOnly] = useState(f.liked_only ?? false);
  const [meters, setMeters] = useState<OtherMeter[]>(f.meters_included ?? []);
  const [shortest, setShortest] = useState(secondsToMinutes(f.min_duration_s));
  const [longest, setLongest] = useState(secondsToMinutes(f.max_duration_s));

  const [sending, setSending] = useState(false);
  const sendingRef = useRef(false);
  // Refusals of the last save, until the runner edits what they concern.
  const [cleared, setCleared] = useState<{ of: unknown; parts: Part[] }>({ of: null, parts: [] });
  const minN = Number(min);
  const maxN = Number(max);
  const bpmOk = (n: number) => Number.isFinite(n) && n >= TARGET_BPM_MIN && n <= TARGET_BPM_MAX;
  const rangeError =
    !bpmOk(minN) || !bpmOk(maxN)
      ? `From ${TARGET_BPM_MIN} to ${TARGET_BPM_MAX} BPM.`
      : minN >= maxN
        ? 'The lowest BPM must be below the highest.'
        : null;
  const sameRange = (r: { min: number; max: number } | undefined) => r?.min === minN && r.max === maxN;
  const name =
    typed ??
    (preset && sameRange(preset)
      ? preset.name
      : t && sameRange(t.bpms)
        ? t.target
        : t
          ? rangeError
            ? t.target
            : defaultName(minN, maxN)
          : '');
  // Left out when unchanged, and when it is the default of a target already named by default: the
  // server's default name follows the range by itself.
  const sentName =
    name.trim() === '' ||
    name.trim() === t?.target ||
    (t && DEFAULT_NAME.test(t.target) && name === defaultName(minN, maxN))
      ? undefined
      : name.trim();
  const minS = minutesToSeconds(shortest);
  const maxS = minutesToSeconds(longest);
  const durationError =
    minS === undefined || maxS === undefined
      ? 'Minutes, from 0 to 60.'
      : minS !== null && maxS !== null && minS > maxS
        ? 'The shortest must not exceed the longest.'
        : null;
  const nameError = name.trim() === '' ? null : targetNameProblem(name.trim());
  const invalid = Boolean(rangeError || durationError || nameError);

  const refusals = placeRefusals(props.error);
  const gone = cleared.of === props.error ? cleared.parts : [];
  const refusal = (part: Part) => (gone.includes(part) ? undefined : refusals[part]);
  /** An edit of a part: its refusal (and one about the whole form) leaves the screen. */
  const edited = (part: Part) => setCleared({ of: props.error, parts: [...gone, part, 'form'] });

  // A refusal is brought into view: the first field it concerns gets the focus, or the alert is shown.
  const nameRef = useRef<HTMLInputElement>(null);
  const minRef = useRef<HTMLInputElement>(null);
  const shortestRef = useRef<HTMLInputElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const placed = placeRefusals(props.error);
    const field = placed.name ? nameRef : placed.range ? minRef : placed.duration ? shortestRef : null;
    if (field?.current) {
      field.current.focus();
      field.current.scrollIntoView?.({ block: 'center' });
    } else if (placed.form) alertRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [props.error]);

  const nameHelp =
    nameError ??
    refusal('name') ??
    (t
      ? 'Also the name of its Spotify playlist.'
      : rangeError
        ? 'Empty: “Pacebeat {min}–{max} BPM”.'
        : `Empty: “Pacebeat ${minN}–${maxN} BPM”.`);
  const rangeHelp = rangeError ?? refusal('range');
  const durationHelp = durationError ?? refusal('duration');

  function save() {
    if (invalid || sendingRef.current) return;
    sendingRef.current = true;
    setSending(true);
    const settled = () => {
      sendingRef.current = false;
      setSending(false);
    };
    props
      .onSave({
        ...(sentName !== undefined ? { name: sentName } : {}),
        min_bpm: minN,
        max_bpm: maxN,
        filters: {
          no_explicit: noExplicit,
          liked_only: likedOnly,
          meters_included: OTHER_METERS.filter((m) => meters.includes(m)),
          min_duration_s: minS ?? null,
          max_duration_s: maxS ?? null,
        },
      })
      .then(settled, settled);
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
          {refusal('form') && (
            <Alert severity="error" ref={alertRef}>
              {refusal('form')}
            </Alert>
          )}
          <PresetPicker
            onPick={(p) => {
              setMin(String(p.min));
              setMax(String(p.max));
              setPreset(p);
              edited('range');
            }}
          />
          <TextField
            label="Name"
            value={name}
            onChange={(e) => {
              setTyped(e.target.value === '' ? null : e.target.value);
              edited('name');
            }}
            helperText={nameHelp}
            error={Boolean(nameError ?? refusal('name'))}
            inputRef={nameRef}
            slotProps={{ htmlInput: { maxLength: TARGET_NAME_MAX_CODE_UNITS } }}
          />
          <Stack direction="row" spacing={2}>
            <TextField
              label="Lowest BPM"
              type="number"
              value={min}
              onChange={(e) => {
                setMin(e.target.value);
                edited('range');
              }}
              error={Boolean(rangeHelp)}
              inputRef={minRef}
              slotProps={{ htmlInput: { min: TARGET_BPM_MIN, max: TARGET_BPM_MAX, step: 1 } }}
              fullWidth
            />
            <TextField
              label="Highest BPM"
              type="number"
              value={max}
              onChange={(e) => {
                setMax(e.target.value);
                edited('range');
              }}
              error={Boolean(rangeHelp)}
              helperText={rangeHelp ?? 'Up to, not including.'}
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
          <FormControl component="fieldset" variant="standard">
            <FormLabel component="legend">Also take songs in</FormLabel>
            <FormGroup row>
              {OTHER_METERS.map((m) => (
                <FormControlLabel
                  key={m}
                  control={
                    <Checkbox
                      checked={meters.includes(m)}
                      onChange={(e) =>
                        setMeters((now) => (e.target.checked ? [...now, m] : now.filter((x) => x !== m)))
                      }
                    />
                  }
                  label={m}
                />
              ))}
            </FormGroup>
            <FormHelperText>
              Left out by default, as a stride is two steps: a song {METER_REASONS['3/4']}. Tick a meter to
              let it in.
            </FormHelperText>
          </FormControl>
          {/* One above the other on a phone: side by side, each label was cut to "Shortest (mi". */}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              label="Shortest (minutes)"
              value={shortest}
              onChange={(e) => {
                setShortest(e.target.value);
                edited('duration');
              }}
              error={Boolean(durationHelp)}
              inputRef={shortestRef}
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
              fullWidth
            />
            <TextField
              label="Longest (minutes)"
              value={longest}
              onChange={(e) => {
                setLongest(e.target.value);
                edited('duration');
              }}
              error={Boolean(durationHelp)}
              helperText={durationHelp ?? 'Empty: no limit.'}
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
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button onClick={save} variant="contained" disabled={invalid || props.busy || sending}>
          {t ? 'Save' : 'Add'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
