import type { Target } from '@pacebeat/contract';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { bpmRange } from '../../status/status-format.ts';
import { TargetName } from '../TargetsTable/TargetsTable.tsx';

/** The filters of a target in a few words, or null when it has none. */
export function filtersText(t: Target): string | null {
  const f = t.filters;
  if (!f) return null;
  const parts: string[] = [];
  if (f.no_explicit) parts.push('no explicit tracks');
  if (f.liked_only) parts.push('Liked Songs only');
  if (f.meters_included?.length) parts.push(`also ${f.meters_included.join(', ')}`);
  const min = (s: number) => `${+(s / 60).toFixed(2)} min`;
  if (f.min_duration_s !== null && f.max_duration_s !== null)
    parts.push(`${min(f.min_duration_s)} to ${min(f.max_duration_s)}`);
  else if (f.min_duration_s !== null) parts.push(`at least ${min(f.min_duration_s)}`);
  else if (f.max_duration_s !== null) parts.push(`at most ${min(f.max_duration_s)}`);
  return parts.length ? parts.join(', ') : null;
}

/** The runner's targets as cards (one column on a phone), each with its actions. */
export function PaceTargetList(props: {
  targets: Target[];
  readOnly: boolean;
  onEdit: (t: Target) => void;
  onDelete: (t: Target) => void;
  onRemoveUnfitting: (t: Target) => void;
}) {
  if (props.targets.length === 0)
    return <Typography color="text.secondary">No paces yet: add one to get a playlist.</Typography>;
  return (
    <Stack component="ul" aria-label="Your paces" spacing={1.5} sx={{ p: 0, m: 0, listStyle: 'none' }}>
      {props.targets.map((t) => (
        <Card component="li" variant="outlined" key={t.target_id}>
          <CardContent sx={{ pb: 1 }}>
            <Typography component="div" sx={{ overflowWrap: 'anywhere', fontWeight: 600 }}>
              <TargetName target={t} />
            </Typography>
            <Typography color="text.secondary" variant="body2">
              {bpmRange(t)} BPM{filtersText(t) ? ` · ${filtersText(t)}` : ''}
            </Typography>
          </CardContent>
          {!props.readOnly && (
            <CardActions sx={{ flexWrap: 'wrap', gap: 0.5, px: 1.5, pb: 1.5 }}>
              <Button
                size="small"
                variant="outlined"
                onClick={() => props.onEdit(t)}
                aria-label={`Edit ${t.target}`}
              >
                Edit
              </Button>
              <Button
                size="small"
                onClick={() => props.onRemoveUnfitting(t)}
                aria-label={`Remove what no longer fits from ${t.target}`}
              >
                Remove what no longer fits
              </Button>
              <Button
                size="small"
                color="error"
                onClick={() => props.onDelete(t)}
                aria-label={`Delete ${t.target}`}
              >
                Delete
              </Button>
            </CardActions>
          )}
        </Card>
      ))}
    </Stack>
  );
}
