import AppBar from '@mui/material/AppBar';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import { Link as RouterLink } from 'react-router';
import { PacebeatLogo } from '../PacebeatLogo/PacebeatLogo.tsx';

export function AppHeader() {
  return (
    <AppBar position="static" color="primary">
      <Container maxWidth="md" disableGutters>
        <Toolbar>
          <Link
            component={RouterLink}
            to="/"
            color="inherit"
            underline="none"
            variant="h6"
            sx={{ display: 'flex', alignItems: 'center', gap: 1, fontWeight: 700, letterSpacing: 0.3 }}
          >
            <PacebeatLogo fontSize="large" />
            Pacebeat
          </Link>
        </Toolbar>
      </Container>
    </AppBar>
  );
}
