import { createContext, useContext } from 'react';
import type { ApiClient } from '../api/client.ts';
import type { Session } from './user-status.ts';

export const SessionContext = createContext<Session | null>(null);

/** The user status shared by all screens (spec §3). Only valid under <SessionProvider>. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() needs a <SessionProvider> above it');
  return session;
}

/** The API client of the current session (it carries the sudo value). */
export function useApi(): ApiClient {
  return useSession().api;
}
