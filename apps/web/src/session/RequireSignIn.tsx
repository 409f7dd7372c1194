import type { ReactNode } from 'react';
import { useSession } from './session-context.ts';
import { SudoNavigate } from './sudo-navigation.tsx';

/**
 * A page for signed-in users only: nothing until whoami has answered, a visitor goes to /login (as the
 * connect and disconnect pages do), and only a signed-in user's page reads the API.
 */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const session = useSession();
  if (!session.dataReady) return null;
  if (!session.isAuthenticated) return <SudoNavigate to="/login" />;
  return children;
}
