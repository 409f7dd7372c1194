import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { versionLine } from '../../build-info.ts';
import { SudoLink } from '../../session/sudo-navigation.tsx';

type AppFooterProps = {
  /** Links crediting outside data sources (e.g. GetSongBPM's required backlink); shown when given. */
  attributions?: ReactNode;
};

/** The footer of every page: version and build, a link to About, and the attribution links. */
export function AppFooter({ attributions }: AppFooterProps) {
  return (
    <Box
      component="footer"
      sx={{ mt: 'auto', borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper' }}
    >
      <Container maxWidth="md" sx={{ py: 2 }}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={{ xs: 0.5, sm: 2 }}
          sx={{ justifyContent: 'space-between', alignItems: { xs: 'flex-start', sm: 'center' } }}
        >
          <Typography variant="body2" color="text.secondary">
            <Link component={SudoLink} to="/about" color="inherit">
              About Pacebeat
            </Link>
          </Typography>
          {attributions ? (
            <Typography variant="body2" color="text.secondary" component="div" aria-label="Attributions">
              {attributions}
            </Typography>
          ) : null}
          <Typography variant="body2" color="text.secondary" data-testid="version">
            {versionLine()}
          </Typography>
        </Stack>
      </Container>
    </Box>
  );
}
