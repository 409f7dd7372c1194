import type { Source } from '@pacebeat/contract';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { lastJob, statOrNa, STATUS_TEXTS as T } from '../../status/status-format.ts';
import { CardField } from '../CardField/CardField.tsx';
import { SourceName } from './SourceName.tsx';
import { SourceSwitch } from './SourceSwitch.tsx';
import { TableFrame } from '../TableFrame/TableFrame.tsx';

const key = (s: Source) => `${s.kind}:${s.source_id}`;

/** The "Sources" table (spec §2): a table from 600 px up, a card per source on a phone. */
export function SourcesTable({ sources }: { sources: Source[] }) {
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  if (sources.length === 0) {
    return <Typography color="text.secondary">No sources found in your library yet.</Typography>;
  }
  if (phone) {
    return (
      <Stack spacing={1.5} component="ul" aria-label={T.sourcesTitle} sx={{ p: 0, m: 0, listStyle: 'none' }}>
        {sources.map((s) => (
          <Card component="li" variant="outlined" key={key(s)}>
            <CardContent sx={{ '&:last-child': { pb: 2 } }}>
              <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <SourceName source={s} />
                </Box>
                <SourceSwitch source={s} />
              </Box>
              <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1, mt: 1 }}>
                <CardField label="Last scan" value={lastJob(s)} />
                <CardField label="Tracks seen" value={statOrNa(s.stats.known_tracks)} />
              </Box>
            </CardContent>
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <TableFrame>
      <Table size="small" aria-label={T.sourcesTitle}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ fontWeight: 600 }}>Name</TableCell>
            <TableCell sx={{ fontWeight: 600 }}>Enabled</TableCell>
            <TableCell sx={{ fontWeight: 600 }}>Last scan</TableCell>
            <TableCell
              align="right"
              sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
              title="Songs in this source (a song on several records counts once); the line below: those with a known tempo"
            >
              Tracks seen
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {sources.map((s) => (
            <TableRow key={key(s)}>
              <TableCell>
                <SourceName source={s} />
              </TableCell>
              <TableCell>
                <SourceSwitch source={s} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{lastJob(s)}</TableCell>
              <TableCell align="right">{statOrNa(s.stats.known_tracks)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableFrame>
  );
}
