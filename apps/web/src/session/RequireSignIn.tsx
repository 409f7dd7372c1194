import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { loginPathFor } from './return-to.ts';
import { useSession } from './session-context.ts';
import { SudoNavigate } from './sudo-navigation.tsx';

/**
 * A page for signed-in users only: nothing until whoami has answered, a visitor goes to /login (as the
 * connect and disconnect pages do) and comes back here after signing in; only a signed-in user's page
 * reads the API.
 */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const session = useSession();
  const { pathname, search } = useLocation();
  if (!session.dataReady) return null;
  if (!session.isAuthenticated) return <SudoNavigate to={loginPathFor(pathname, search)} />;
  return children;
}
