import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import { Outlet } from 'react-router';
import { AppFooter } from '../components/AppFooter/AppFooter.tsx';
import { AppHeader } from '../components/AppHeader/AppHeader.tsx';
import { lazy, Suspense } from 'react';
import { useTempoAttributions } from '../components/TempoCredits/TempoCredits.tsx';
import { SessionProvider } from '../session/SessionProvider.tsx';
import { useSession } from '../session/session-context.ts';
import { usePageTitle } from './page-title.ts';

// Only signed-in users (and refused sudo values) see notices: loaded on demand.
const Notices = lazy(() => import('./Notices.tsx'));
const SudoRefused = lazy(async () => ({
  default: (await import('../components/SudoNotice/SudoNotice.tsx')).SudoRefused,
}));

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
  const { sudoRefused, isAuthenticated } = useSession();
  usePageTitle();
  if (sudoRefused !== null) {
    return (
      <Suspense fallback={null}>
        <SudoRefused />
      </Suspense>
    );
  }
  return (
    <>
      {isAuthenticated && (
        <Suspense fallback={null}>
          <Notices />
        </Suspense>
      )}
      <Outlet />
    </>
  );
}

/** The footer with the links the server's tempo sources require (inside the session: it uses its API client). */
function Footer() {
  return <AppFooter attributions={useTempoAttributions()} />;
}
