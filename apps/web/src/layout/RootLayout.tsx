import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import { Outlet } from 'react-router';
import { AppFooter } from '../components/AppFooter/AppFooter.tsx';
import { AppHeader } from '../components/AppHeader/AppHeader.tsx';
import { DemoBanner } from '../components/DemoBanner/DemoBanner.tsx';
import { SpotifyPausedNotice } from '../components/SpotifyPausedNotice/SpotifyPausedNotice.tsx';
import { SudoBanner, SudoRefused } from '../components/SudoNotice/SudoNotice.tsx';
import { useTempoAttributions } from '../components/TempoCredits/TempoCredits.tsx';
import { SessionProvider } from '../session/SessionProvider.tsx';
import { useSession } from '../session/session-context.ts';
import { usePageTitle } from './page-title.ts';

/** The one layout every route sits under (spec §2): app bar, notices, the page, footer. */
export function RootLayout() {
  return (
    <SessionProvider>
      <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
        <AppHeader />
        <Container component="main" maxWidth="md" sx={{ flex: 1, py: { xs: 2, sm: 5 } }}>
          <Page />
        </Container>
        <Footer />
      </Box>
    </SessionProvider>
  );
}

/** The notices above every page (sudo mode, demo mode, Spotify paused), then the page itself. */
function Page() {
  const { sudoRefused } = useSession();
  usePageTitle();
  if (sudoRefused !== null) return <SudoRefused />;
  return (
    <>
      <SudoBanner />
      <DemoBanner />
      <SpotifyPausedNotice />
      <Outlet />
    </>
  );
}

/** The footer with the links the server's tempo sources require (inside the session: it uses its API client). */
function Footer() {
  return <AppFooter attributions={useTempoAttributions()} />;
}
