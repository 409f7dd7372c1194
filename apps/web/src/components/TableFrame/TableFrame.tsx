import Box from '@mui/material/Box';
import TableContainer from '@mui/material/TableContainer';
import type { ReactNode } from 'react';

/** The framed container of the status page's tables (Target playlists, Sources) from 600 px up. */
export function TableFrame({ children }: { children: ReactNode }) {
  return (
    <TableContainer
      component={Box}
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'background.paper' }}
    >
      {children}
    </TableContainer>
  );
}
