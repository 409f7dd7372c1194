import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** Each route's title in the browser tab and history (the spec's routes, §2). */
const TITLES: Record<string, string> = {
  '/': 'Running playlists',
  '/about': 'About',
  '/ping': 'Ping',
  '/login': 'Log in or register',
  '/logout': 'Log out',
  '/connect/spotify': 'Connect Spotify',
  '/disconnect/spotify': 'Disconnect Spotify',
  '/excluded': 'Excluded tracks',
  '/paces': 'Paces',
  '/setup/spotify': 'Spotify setup',
};

export const pageTitle = (pathname: string) => {
  const title = TITLES[pathname] ?? (pathname.startsWith('/targets/') ? 'Target tracks' : undefined);
  return title ? `${title} · Pacebeat` : 'Pacebeat';
};

/** Sets `document.title` from the route, so every page (and every tab) has its own title. */
export function usePageTitle() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = pageTitle(pathname);
  }, [pathname]);
}
