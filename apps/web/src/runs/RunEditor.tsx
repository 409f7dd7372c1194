import type { RunBody } from '@pacebeat/contract';
import {
  RUN_REPEAT_SEGMENTS_MAX,
  RUN_REPEAT_TIMES_MAX,
  RUN_REPEAT_TIMES_MIN,
  TARGET_NAME_MAX_CODE_UNITS,
  formatDuration,
  runDuration,
  runRange,
  segmentCount,
  targetNameProblem,
  type RunBlockShape,
  type RunSegmentShape,
} from '@pacebeat/contract/rules';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { isApiError } from '../api/client.ts';
import { plainMessage } from '../api/plain-message.ts';
import { cadenceAtPace, loadReference, parsePace } from '../paces/presets.ts';

export interface RunEditorProps {
  initial: RunBody;
  busy: boolean;
  /** The server's refusal (an ApiError): its sentences are shown above the form. */
  error: unknown;
  saveLabel: string;
  onSave: (body: RunBody) => void;
  onCancel?: () => void;
}

/** Every sentence of a refusal, once each. */
function refusalText(error: unknown): string | null {
  if (!error) return null;
  if (isApiError(error) && error.fields.length > 0)
    return [...new Set(error.fields.map((f) => f.message))].join(' ');
  return plainMessage(error);
}

const minutesText = (s: number) => String(+(s / 60).toFixed(2));

/**
 * One segment's fields: its label, minutes, and its BPM range, which a cadence (steps/min) or a pace
 * (min/km at the runner's reference, kept in this browser by the paces page) fills in.
 */
function SegmentFields({
  segment,
  onChange,
  name,
}: {
  segment: RunSegmentShape;
  onChange: (s: RunSegmentShape) => void;
  name: string;
}) {
  // What is typed is held only while the field has the focus (blocks are keyed by place, so a part moved
  // up or down shows its own values, never the text typed into the part that was there).
  const [minutes, setMinutes] = useState<string | null>(null);
  const [by, setBy] = useState<string | null>(null);
  const ref = loadReference();
  const fromCadenceOrPace = (text: string) => {
    setBy(text);
    const pace = parsePace(text);
    const cadence = pace !== null ? cadenceAtPace(pace, ref.unit, ref) : Number(text);
    if (Number.isFinite(cadence) && cadence >= 60 && cadence <= 220)
      onChange({ ...segment, ...runRange(cadence) });
  };
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }}>
      <Typography variant="subtitle2" sx={{ width: '100%' }}>
        {name}
      </Typography>
      <TextField
        label="Label"
        slotProps={{ htmlInput: { maxLength: 40, 'aria-label': `${name}: label` } }}
        size="small"
        value={segment.label}
        onChange={(e) => onChange({ ...segment, label: e.target.value })}
        sx={{ width: { xs: '100%', sm: 150 } }}
      />
      <TextField
        label="Minutes"
        slotProps={{ htmlInput: { 'aria-label': `${name}: minutes` } }}
        size="small"
        value={minutes ?? minutesText(segment.duration_s)}
        inputMode="decimal"
        onBlur={() => setMinutes(null)}
        onChange={(e) => {
          setMinutes(e.target.value);
          const n = Number(e.target.value.replace(',', '.'));
          if (Number.isFinite(n) && n > 0) onChange({ ...segment, duration_s: Math.round(n * 60) });
        }}
        sx={{ width: 110 }}
      />
      <TextField
        label="Lowest BPM"
        slotProps={{ htmlInput: { 'aria-label': `${name}: lowest BPM` } }}
        size="small"
        type="number"
        value={segment.min_bpm}
        onChange={(e) => onChange({ ...segment, min_bpm: Number(e.target.value) })}
        sx={{ width: 120 }}
      />
      <TextField
        label="Highest BPM"
        slotProps={{ htmlInput: { 'aria-label': `${name}: highest BPM` } }}
        size="small"
        type="number"
        value={segment.max_bpm}
        onChange={(e) => onChange({ ...segment, max_bpm: Number(e.target.value) })}
        sx={{ width: 120 }}
      />
      <TextField
        label="Or a cadence or pace"
        slotProps={{ htmlInput: { 'aria-label': `${name}: or a cadence or pace` } }}
        placeholder={`170 or 5:30/${ref.unit}`}
        size="small"
        value={by ?? ''}
        onBlur={() => setBy(null)}
        onChange={(e) => fromCadenceOrPace(e.target.value.replace(/\/(km|mile)$/, ''))}
        helperText="Sets the range"
        sx={{ width: 170 }}
      />
    </Stack>
  );
}

const newSegment = (label = 'Easy'): RunSegmentShape => ({
  duration_s: 300,
  label,
  ...runRange(loadReference().cadence),
});

/** Moves item i of a list by d places (when it can). */
const moved = <T,>(list: T[], i: number, d: number): T[] => {
  const j = i + d;
  if (j < 0 || j >= list.length) return list;
  const out = [...list];
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
};

/** The run's plan as the runner edits it: its name, segments and repeats, half-time and filters. */
export function RunEditor({ initial, busy, error, saveLabel, onSave, onCancel }: RunEditorProps) {
  const [name, setName] = useState(initial.name);
  const [blocks, setBlocks] = useState<RunBlockShape[]>(initial.blocks);
  const [halfTime, setHalfTime] = useState(initial.half_time);
  const [noExplicit, setNoExplicit] = useState(initial.no_explicit);
  const [likedOnly, setLikedOnly] = useState(initial.liked_only);
  const [nameError, setNameError] = useState<string | null>(null);
  const refusal = refusalText(error);

  const setBlock = (i: number, b: RunBlockShape) => setBlocks(blocks.map((x, k) => (k === i ? b : x)));
  const submit = () => {
    const problem = targetNameProblem(name.trim());
    setNameError(problem);
    if (problem) return;
    onSave({
      name: name.trim(),
      blocks,
      half_time: halfTime,
      no_explicit: noExplicit,
      liked_only: likedOnly,
    });
  };

  return (
    <Stack
      component="form"
      spacing={2}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {refusal && <Alert severity="error">{refusal}</Alert>}
      <TextField
        label="Name of the run"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={nameError !== null}
        helperText={nameError ?? 'Its playlist in Spotify is called “Pacebeat run: ” and this name.'}
        slotProps={{ htmlInput: { maxLength: TARGET_NAME_MAX_CODE_UNITS } }}
        required
      />
      <Stack component="ol" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="Segments">
        {blocks.map((b, i) => {
          const label = b.kind === 'segment' ? `Part ${i + 1}` : `Repeat ${i + 1}`;
          return (
            <Box component="li" key={i} sx={{ borderLeft: 3, borderColor: 'divider', pl: 1.5 }}>
              <Stack spacing={1}>
                {b.kind === 'segment' ? (
                  <SegmentFields
                    name={label}
                    segment={b}
                    onChange={(s) => setBlock(i, { kind: 'segment', ...s })}
                  />
                ) : (
                  <Stack spacing={1}>
                    <Typography variant="subtitle2">{label}</Typography>
                    <TextField
                      label="Times"
                      size="small"
                      type="number"
                      value={b.times}
                      onChange={(e) => setBlock(i, { ...b, times: Number(e.target.value) })}
                      slotProps={{
                        htmlInput: {
                          min: RUN_REPEAT_TIMES_MIN,
                          max: RUN_REPEAT_TIMES_MAX,
                          'aria-label': `${label}: times`,
                        },
                      }}
                      sx={{ width: 120 }}
                    />
                    {b.segments.map((s, k) => (
                      <Stack key={k} direction="row" spacing={1} sx={{ alignItems: 'flex-start', pl: 2 }}>
                        <SegmentFields
                          name={`${label}, part ${k + 1}`}
                          segment={s}
                          onChange={(n) =>
                            setBlock(i, { ...b, segments: b.segments.map((x, m) => (m === k ? n : x)) })
                          }
                        />
                        {b.segments.length > 1 && (
                          <Button
                            size="small"
                            aria-label={`Remove ${label}, part ${k + 1}`}
                            onClick={() =>
                              setBlock(i, { ...b, segments: b.segments.filter((_, m) => m !== k) })
                            }
                          >
                            Remove
                          </Button>
                        )}
                      </Stack>
                    ))}
                    {b.segments.length < RUN_REPEAT_SEGMENTS_MAX && (
                      <Button
                        size="small"
                        sx={{ alignSelf: 'flex-start' }}
                        onClick={() => setBlock(i, { ...b, segments: [...b.segments, newSegment()] })}
                      >
                        Add a part to {label.toLowerCase()}
                      </Button>
                    )}
                  </Stack>
                )}
                <Stack direction="row" spacing={1}>
                  <Button
                    size="small"
                    aria-label={`Move ${label} up`}
                    disabled={i === 0}
                    onClick={() => setBlocks(moved(blocks, i, -1))}
                  >
                    Up
                  </Button>
                  <Button
                    size="small"
                    aria-label={`Move ${label} down`}
                    disabled={i === blocks.length - 1}
                    onClick={() => setBlocks(moved(blocks, i, 1))}
                  >
                    Down
                  </Button>
                  <Button
                    size="small"
                    color="error"
                    aria-label={`Remove ${label}`}
                    disabled={blocks.length === 1}
                    onClick={() => setBlocks(blocks.filter((_, k) => k !== i))}
                  >
                    Remove
                  </Button>
                </Stack>
              </Stack>
            </Box>
          );
        })}
      </Stack>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          onClick={() => setBlocks([...blocks, { kind: 'segment', ...newSegment() }])}
        >
          Add a part
        </Button>
        <Button
          variant="outlined"
          onClick={() =>
            setBlocks([
              ...blocks,
              { kind: 'repeat', times: 4, segments: [newSegment('Fast'), newSegment('Easy')] },
            ])
          }
        >
          Add a repeat
        </Button>
      </Stack>
      <Typography color="text.secondary" role="status">
        {formatDuration(runDuration(blocks))} in {segmentCount(blocks)} parts.
      </Typography>
      <Stack>
        <FormControlLabel
          control={<Switch checked={halfTime} onChange={(e) => setHalfTime(e.target.checked)} />}
          label="Count half-time songs (an 85 BPM song for 170 steps a minute)"
        />
        <FormControlLabel
          control={<Switch checked={noExplicit} onChange={(e) => setNoExplicit(e.target.checked)} />}
          label="Leave out explicit songs"
        />
        <FormControlLabel
          control={<Switch checked={likedOnly} onChange={(e) => setLikedOnly(e.target.checked)} />}
          label="Only songs from Liked Songs"
        />
      </Stack>
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" disabled={busy}>
          {saveLabel}
        </Button>
        {onCancel && (
          <Button onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        )}
      </Stack>
    </Stack>
  );
}
