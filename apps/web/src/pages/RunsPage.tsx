import type { RunBody } from '@pacebeat/contract';
import {
  RUN_PRESET_NAMES,
  RUN_PRESETS,
  formatDuration,
  runDuration,
  runPreset,
  type RunPresetId,
} from '@pacebeat/contract/rules';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { plainMessage } from '../api/plain-message.ts';
import { StillLoading } from '../components/StillLoading/StillLoading.tsx';
import { loadReference } from '../paces/presets.ts';
import { useRunWrites, useRuns } from '../runs/runs-queries.ts';
import { RequireSignIn } from '../session/RequireSignIn.tsx';
import { useSession } from '../session/session-context.ts';
import { SudoLink, useSudoNavigate } from '../session/sudo-navigation.tsx';

const when = (s: number) =>
  new Date(s * 1000).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** /runs: the runner's saved runs, and a new one from a preset (easy, tempo, intervals, long, fartlek). */
export function RunsPage() {
  return (
    <RequireSignIn>
      <Runs />
    </RequireSignIn>
  );
}

function Runs() {
  const { sudo } = useSession();
  const runs = useRuns();
  const writes = useRunWrites();
  const navigate = useSudoNavigate();
  const reference = loadReference();
  const [preset, setPreset] = useState<RunPresetId>('intervals');
  const [cadence, setCadence] = useState(String(reference.cadence));
  const [name, setName] = useState('');
  const easy = Number(cadence);
  const cadenceOk = Number.isFinite(easy) && easy >= 120 && easy <= 200;

  const create = () => {
    const body: RunBody = {
      name: name.trim() || RUN_PRESET_NAMES[preset],
      blocks: runPreset(preset, cadenceOk ? easy : reference.cadence),
      half_time: true,
      no_explicit: false,
      liked_only: false,
    };
    writes.create.mutate(body, { onSuccess: (r) => navigate(`/runs/${r.data.run.run_id}`) });
  };

  const list = runs.data?.data.runs;
  return (
    <Stack spacing={{ xs: 3, sm: 4 }}>
      <Stack spacing={0.5}>
        <Typography variant="h1">Your runs</Typography>
        <Typography color="text.secondary">
          A run is a workout: parts at their own tempo, with repeats. Pacebeat builds each into one playlist
          from your own songs, each song at the tempo of its part.{' '}
          <SudoLink to="/">Back to main page</SudoLink>
        </Typography>
      </Stack>
      {sudo && <Alert severity="info">Viewing only: changes are disabled in sudo mode.</Alert>}
      <Stack component="section" spacing={1.5} aria-labelledby="saved-runs">
        <Typography variant="h2" id="saved-runs">
          Saved runs
        </Typography>
        {runs.isPending && <StillLoading text="Please wait... Still loading..." />}
        {runs.error && <Alert severity="error">{plainMessage(runs.error)}</Alert>}
        {list && list.length === 0 && <Typography>No run yet: make one from a preset below.</Typography>}
        {list && list.length > 0 && (
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {list.map((r) => (
              <li key={r.run_id}>
                <Link component={SudoLink} to={`/runs/${r.run_id}`}>
                  <bdi>{r.name}</bdi>
                </Link>{' '}
                · {formatDuration(r.planned_s)} in {r.segments} parts ·{' '}
                {r.built_at ? `built ${when(r.built_at)}` : 'not built yet'}
              </li>
            ))}
          </Box>
        )}
      </Stack>
      {!sudo && (
        <Stack
          component="form"
          spacing={2}
          aria-labelledby="new-run"
          onSubmit={(e) => {
            e.preventDefault();
            create();
          }}
        >
          <Typography variant="h2" id="new-run">
            New run
          </Typography>
          <TextField
            select
            label="Workout"
            value={preset}
            onChange={(e) => setPreset(e.target.value as RunPresetId)}
            helperText={`${formatDuration(runDuration(runPreset(preset, cadenceOk ? easy : reference.cadence)))}; you can change every part after.`}
            sx={{ maxWidth: 360 }}
          >
            {RUN_PRESETS.map((p) => (
              <MenuItem key={p} value={p}>
                {RUN_PRESET_NAMES[p]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Your easy cadence (steps a minute)"
            value={cadence}
            inputMode="numeric"
            onChange={(e) => setCadence(e.target.value)}
            error={!cadenceOk}
            helperText={
              cadenceOk
                ? 'Faster parts are set a few steps above it, the cool-down a few below.'
                : 'A cadence from 120 to 200 steps a minute.'
            }
            sx={{ maxWidth: 360 }}
          />
          <TextField
            label="Name"
            placeholder={RUN_PRESET_NAMES[preset]}
            value={name}
            onChange={(e) => setName(e.target.value)}
            sx={{ maxWidth: 360 }}
          />
          {writes.create.error && <Alert severity="error">{plainMessage(writes.create.error)}</Alert>}
          <Button
            type="submit"
            variant="contained"
            disabled={writes.create.isPending || !cadenceOk}
            sx={{ alignSelf: 'flex-start' }}
          >
            Make this run
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
