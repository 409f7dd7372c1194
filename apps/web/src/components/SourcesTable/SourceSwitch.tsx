import type { Source } from '@pacebeat/contract';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Switch from '@mui/material/Switch';
import { useReadOnlyReason } from '../../session/read-only.ts';
import { useSourceChange } from '../../status/status-queries.ts';

/**
 * The Enabled switch of one source (spec §2, §4): flips at once, is disabled with a spinner while its
 * call runs, and flips back if the call fails. A source that cannot be enabled shows a disabled switch,
 * and so does every source in sudo mode (read-only), with the reason as its tooltip.
 */
export function SourceSwitch({ source }: { source: Source }) {
  const change = useSourceChange();
  const readOnly = useReadOnlyReason();
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }} title={readOnly ?? undefined}>
      <Switch
        checked={source.enabled}
        disabled={readOnly !== null || change.isPending || (!source.can_enable && !source.enabled)}
        onChange={(_, enabled) => change.mutate({ kind: source.kind, source_id: source.source_id, enabled })}
        slotProps={{ input: { 'aria-label': `Enabled: ${source.name}` } }}
      />
      {change.isPending && <CircularProgress size={16} aria-label={`Saving ${source.name}`} />}
    </Box>
  );
}
