import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { useSession } from '../../session/session-context.ts';
import { SudoLink } from '../../session/sudo-navigation.tsx';
import { PacebeatLogo } from '../PacebeatLogo/PacebeatLogo.tsx';

// The menu (and MUI's Menu with it) loads only for signed-in users: a visitor's first load skips it.
const AccountMenu = lazy(() => import('../AccountMenu/AccountMenu.tsx'));

/** The app bar: the logo home, and "Log in" for a visitor or the account menu for a signed-in user. */
export function AppHeader() {
  const { dataReady, isAuthenticated, sudoRefused } = useSession();
  const onLoginPage = useLocation().pathname === '/login';
  return (
    <AppBar position="static" color="primary">
      <Container maxWidth="md" disableGutters>
        <Toolbar sx={{ gap: 1 }}>
          <Link
            component={SudoLink}
            to="/"
            color="inherit"
            underline="none"
            variant="h6"
            sx={{ display: 'flex', alignItems: 'center', gap: 1, fontWeight: 700, letterSpacing: 0.3 }}
          >
            <PacebeatLogo fontSize="large" />
            Pacebeat
          </Link>
          <Box sx={{ flex: 1 }} />
          {dataReady && !isAuthenticated && sudoRefused === null && !onLoginPage && (
            <Button component={SudoLink} to="/login" color="inherit" variant="outlined">
              Log in
            </Button>
          )}
          {isAuthenticated && (
            <Suspense fallback={null}>
              <AccountMenu />
            </Suspense>
          )}
        </Toolbar>
      </Container>
    </AppBar>
  );
}
