import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import { Outlet } from 'react-router';
import { AppFooter } from '../components/AppFooter/AppFooter.tsx';
import { AppHeader } from '../components/AppHeader/AppHeader.tsx';
import { DemoBanner } from '../components/DemoBanner/DemoBanner.tsx';
import { SpotifyPausedNotice } from '../components/SpotifyPausedNotice/SpotifyPausedNotice.tsx';
import { useTempoAttributions } from '../components/TempoCredits/TempoCredits.tsx';
import { SessionProvider } from '../session/SessionProvider.tsx';

/** The one layout every route sits under (spec §2): app bar, notices, the page, footer. */
export function RootLayout() {
  return (
    <SessionProvider>
      <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
        <AppHeader />
        <Container component="main" maxWidth="md" sx={{ flex: 1, py: { xs: 3, sm: 5 } }}>
          {/*
            Notices slot, above every page: the "Demo mode" banner goes here, driven by the
            status reply (it tells whether the app runs against the simulated music world).
          */}
          <DemoBanner />
          <SpotifyPausedNotice />
          <Outlet />
        </Container>
        <Footer />
      </Box>
    </SessionProvider>
  );
}

/** The footer with the links the server's tempo sources require (inside the session: it uses its API client). */
function Footer() {
  return <AppFooter attributions={useTempoAttributions()} />;
}
