import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import {
  formatPace,
  loadReference,
  paceTarget,
  parsePace,
  rangeForCadence,
  saveReference,
  type PaceUnit,
  type RunnerReference,
} from '../../paces/presets.ts';

export interface Preset {
  min: number;
  max: number;
  name: string;
}

function UnitSelect({
  value,
  onChange,
  label,
}: {
  value: PaceUnit;
  onChange: (u: PaceUnit) => void;
  label: string;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value as PaceUnit)}
      sx={{ minWidth: 84, flexShrink: 0 }}
    >
      <MenuItem value="km">/km</MenuItem>
      <MenuItem value="mile">/mile</MenuItem>
    </TextField>
  );
}

/**
 * Presets for the range: by cadence (steps per minute), or by pace (min/km or min/mile) from the runner's
 * cadence at their usual pace (kept in this browser; see paces/presets.ts for how pace becomes cadence).
 */
export function PresetPicker({ onPick }: { onPick: (p: Preset) => void }) {
  const [cadence, setCadence] = useState('170');
  const [pace, setPace] = useState('5:30');
  const [unit, setUnit] = useState<PaceUnit>('km');
  const [ref, setRef] = useState<RunnerReference>(() => loadReference());
  const [editRef, setEditRef] = useState(false);
  const [refPace, setRefPace] = useState(formatPace(ref.paceS));
  const [refCadence, setRefCadence] = useState(String(ref.cadence));

  const c = Number(cadence);
  const cadenceOk = Number.isFinite(c) && c >= 60 && c <= 220;
  const paceS = parsePace(pace);
  const refPaceS = parsePace(refPace);
  const refC = Number(refCadence);
  const refOk = refPaceS !== null && Number.isFinite(refC) && refC >= 120 && refC <= 220;

  function keepRef() {
    if (!refOk) return;
    const next = { paceS: refPaceS, unit: ref.unit, cadence: Math.round(refC) };
    setRef(next);
    saveReference(next);
    setEditRef(false);
  }

  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
      <Stack spacing={1.5}>
        <Typography variant="subtitle2" component="h3">
          Presets
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TextField
            label="Cadence (steps/min)"
            size="small"
            type="number"
            value={cadence}
            onChange={(e) => setCadence(e.target.value)}
            error={!cadenceOk}
            fullWidth
          />
          <Button
            variant="outlined"
            disabled={!cadenceOk}
            onClick={() => {
              const r = rangeForCadence(c);
              onPick({ ...r, name: `Cadence ${Math.round(c)} (${r.min}–${r.max} BPM)` });
            }}
          >
            Use
          </Button>
        </Stack>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TextField
            label="Pace (m:ss)"
            size="small"
            value={pace}
            onChange={(e) => setPace(e.target.value)}
            error={paceS === null}
            sx={{ minWidth: 100 }}
            fullWidth
          />
          <UnitSelect value={unit} onChange={setUnit} label="Per" />
          <Button
            variant="outlined"
            disabled={paceS === null}
            onClick={() => onPick(paceTarget(paceS!, unit, ref))}
          >
            Use
          </Button>
        </Stack>
        {editRef ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start', flexWrap: 'wrap', rowGap: 1 }}>
            <TextField
              label="Your cadence"
              size="small"
              type="number"
              value={refCadence}
              onChange={(e) => setRefCadence(e.target.value)}
              sx={{ width: 120 }}
            />
            <TextField
              label="at your usual pace"
              size="small"
              value={refPace}
              onChange={(e) => setRefPace(e.target.value)}
              sx={{ width: 140 }}
            />
            <UnitSelect value={ref.unit} onChange={(u) => setRef({ ...ref, unit: u })} label="Per" />
            <Button onClick={keepRef} disabled={!refOk}>
              Keep
            </Button>
          </Stack>
        ) : (
          <Typography variant="body2" color="text.secondary">
            Pace presets use your cadence of {ref.cadence} steps/min at {formatPace(ref.paceS)}/{ref.unit}.{' '}
            <Button size="small" onClick={() => setEditRef(true)} sx={{ verticalAlign: 'baseline' }}>
              Change
            </Button>
          </Typography>
        )}
      </Stack>
    </Box>
  );
}
