import type { TrackRow } from '@pacebeat/contract';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import { useId, useState } from 'react';
import { ExcludeDialog, type ExcludeTarget } from '../ExcludeDialog/ExcludeDialog.tsx';
import { TempoDialog } from '../TempoDialog/TempoDialog.tsx';

/** A track's actions: fix its tempo, exclude it or one of its artists. Not shown in sudo mode (read-only). */
export function TrackActions({ track }: { track: TrackRow }) {
  const [tempoOpen, setTempoOpen] = useState(false);
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [exclude, setExclude] = useState<ExcludeTarget | null>(null);
  const menuId = useId();
  return (
    <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
      <Button size="small" variant="outlined" onClick={() => setTempoOpen(true)}>
        Fix tempo
      </Button>
      <Button
        size="small"
        aria-haspopup="menu"
        aria-controls={menu ? menuId : undefined}
        aria-expanded={menu ? 'true' : undefined}
        onClick={(e) => setMenu(e.currentTarget)}
      >
        Exclude…
      </Button>
      <Menu id={menuId} anchorEl={menu} open={menu !== null} onClose={() => setMenu(null)}>
        <MenuItem
          onClick={() => {
            setMenu(null);
            setExclude({ kind: 'track', key: track.recording_key, label: track.title });
          }}
        >
          This track
        </MenuItem>
        {track.artists.map((a) => (
          <MenuItem
            key={a.id}
            onClick={() => {
              setMenu(null);
              setExclude({ kind: 'artist', key: a.id, label: a.name });
            }}
          >
            Artist: <bdi>{a.name}</bdi>
          </MenuItem>
        ))}
      </Menu>
      {tempoOpen && <TempoDialog track={track} onClose={() => setTempoOpen(false)} />}
      {exclude && <ExcludeDialog what={exclude} onClose={() => setExclude(null)} />}
    </Stack>
  );
}
