import type { RefreshBody, RefreshReply, Source } from '@pacebeat/contract';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';

const EVERYTHING = '*';

/**
 * "Refresh now": a rescan of one enabled source or of everything. It is queued like any scan and keeps the
 * call budget's rules; the answer says when it runs (later, when the day's budget is spent).
 */
export function RefreshPanel(props: {
  sources: Source[];
  readOnly: boolean;
  busy: boolean;
  result: RefreshReply['data'] | null;
  error: string | null;
  onRefresh: (body: RefreshBody) => void;
}) {
  const [choice, setChoice] = useState(EVERYTHING);
  const enabled = props.sources.filter((s) => s.enabled);
  const key = (s: Source) => `${s.kind}:${s.source_id}`;
  function refresh() {
    const s = enabled.find((x) => key(x) === choice);
    props.onRefresh(s ? { kind: s.kind, source_id: s.source_id } : {});
  }
  return (
    <Stack spacing={1.5}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          select
          label="What to rescan"
          value={choice}
          onChange={(e) => setChoice(e.target.value)}
          sx={{ minWidth: 240 }}
        >
          <MenuItem value={EVERYTHING}>Everything</MenuItem>
          {enabled.map((s) => (
            <MenuItem key={key(s)} value={key(s)}>
              <bdi>{s.name}</bdi>
            </MenuItem>
          ))}
        </TextField>
        <Button variant="contained" onClick={refresh} disabled={props.readOnly || props.busy}>
          Refresh now
        </Button>
      </Stack>
      {props.result && (
        <Alert severity={/budget is spent/.test(props.result.message) ? 'warning' : 'success'}>
          {props.result.message}
        </Alert>
      )}
      {props.error && <Alert severity="error">{props.error}</Alert>}
    </Stack>
  );
}
