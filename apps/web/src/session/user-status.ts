import type { WhoamiReply } from '@pacebeat/contract';
import type { ApiClient } from '../api/client.ts';

export type WhoamiData = WhoamiReply['data'];

/** The music service a user must connect before the status page has anything to show (spec §2, §9). */
export const MUSIC_SERVICE = 'spotify';

/** What the server says about a visitor: until the accounts work lands, whoami answers 401 to everyone. */
export const VISITOR: WhoamiData = {
  authenticated: false,
  user: null,
  services: {},
  disabled_services: [],
  sudo: null,
};

/** The user status of spec §3, shared by every screen. */
export type UserStatus = {
  /** The first whoami answer (or failure) has arrived. */
  dataReady: boolean;
  /** The last whoami call failed with something other than 401. */
  errorBackend: boolean;
  isAuthenticated: boolean;
  user: WhoamiData['user'];
  /** Connected music services, keyed by service name. */
  services: WhoamiData['services'];
  disabled_services: WhoamiData['disabled_services'];
  /** The admin's impersonation value from `?sudo=` (spec §6), or null. */
  sudo: string | null;
  /** The server refused that sudo value (not an admin, or no such user): its message, else null. */
  sudoRefused: string | null;
  /** The session is being re-read (after `requestRefresh()`, `/?refresh`, or a retry). */
  refresh: boolean;
};

export type Session = UserStatus & {
  /** The API client bound to this session's sudo value: every page calls the API through it. */
  api: ApiClient;
  /** Re-read the session (GET /api/whoami); `refresh` is true until the answer arrives. */
  requestRefresh: () => void;
  /** Mark the user signed out at once (after a 401 or a logout), without waiting for the server. */
  markUnauthenticated: () => void;
};
