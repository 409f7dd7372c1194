import type { Meter, TrackRow } from '@pacebeat/contract';
import { METERS } from '@pacebeat/contract/rules';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { choiceCalls, useCorrectMeter, useUndoMeterCorrection } from '../../choices/choices-queries.ts';
import { METER_NAMES } from '../../choices/choices-texts.ts';
import { useConfirmChoice } from '../../choices/UndoSnackbar.tsx';
import { useSession } from '../../session/session-context.ts';

/** "Meter: 3/4 (a waltz), as the sources and the audio heard it." and the like. */
export function meterText(t: Pick<TrackRow, 'meter' | 'corrected_meter'>): string {
  if (t.corrected_meter !== null) return `Meter: ${METER_NAMES[t.corrected_meter]}, your correction.`;
  if (t.meter === null) return 'Meter: not known (taken as 4/4).';
  return `Meter: ${METER_NAMES[t.meter]}, as the sources and the audio heard it.`;
}

/**
 * The runner's say on a track's meter, beside its tempo: "This one is in 4/4" for a song Pacebeat heard
 * in another meter (the common fix: a 4/4 song taken for a waltz), or any meter. It applies at once; the
 * snackbar's Undo puts back what was there. `onDone` closes the dialog once saved.
 */
export function MeterChoice({
  track,
  onDone,
  removeFromOld,
}: {
  track: TrackRow;
  onDone: () => void;
  /** Also remove it from the targets that do not take the new meter (the dialog's box). */
  removeFromOld: boolean;
}) {
  const correct = useCorrectMeter();
  const undo = useUndoMeterCorrection();
  const { api } = useSession();
  const confirm = useConfirmChoice();
  const calls = choiceCalls(api);
  const key = track.recording_key;
  const previous = track.corrected_meter;
  const shown = track.corrected_meter ?? track.meter;
  const busy = correct.isPending || undo.isPending;

  const set = (meter: Meter) =>
    correct.mutate(
      { recordingKey: key, body: { meter, remove_from_old_targets: removeFromOld } },
      {
        onSuccess: () => {
          onDone();
          confirm({
            message: (
              <>
                “<bdi>{track.title}</bdi>” is in {meter} now.
              </>
            ),
            undo: () =>
              previous !== null
                ? calls.correctMeter(key, { meter: previous, remove_from_old_targets: false })
                : calls.uncorrectMeter(key),
          });
        },
      },
    );

  return (
    <Stack spacing={1} data-testid="meter-choice">
      <Typography variant="body2" color="text.secondary">
        {meterText(track)}
      </Typography>
      {shown !== null && shown !== '4/4' && (
        <Button variant="outlined" disabled={busy} onClick={() => set('4/4')}>
          This one is in 4/4
        </Button>
      )}
      <ToggleButtonGroup
        exclusive
        size="small"
        value={shown}
        aria-label="Set the meter"
        disabled={busy}
        onChange={(_e, m: Meter | null) => {
          if (m !== null && m !== shown) set(m);
        }}
      >
        {METERS.map((m) => (
          <ToggleButton key={m} value={m} aria-label={METER_NAMES[m]}>
            {m}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {track.corrected_meter !== null && (
        <Button
          color="inherit"
          disabled={busy}
          sx={{ alignSelf: 'flex-start' }}
          onClick={() =>
            undo.mutate(key, {
              onSuccess: () => {
                onDone();
                confirm({
                  message: (
                    <>
                      Your meter for “<bdi>{track.title}</bdi>” is removed.
                    </>
                  ),
                  undo: () => calls.correctMeter(key, { meter: previous!, remove_from_old_targets: false }),
                });
              },
            })
          }
        >
          Undo my meter
        </Button>
      )}
      {(correct.error ?? undo.error) && (
        <Typography variant="body2" color="error">
          {(correct.error ?? undo.error)!.message}
        </Typography>
      )}
    </Stack>
  );
}
