import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { PageLoading } from './layout/PageLoading.tsx';
import { RootLayout } from './layout/RootLayout.tsx';
import { StatusPage } from './pages/StatusPage.tsx';
import { SudoNavigate } from './session/sudo-navigation.tsx';

/**
 * A page loaded on first visit (React Router's route-level `lazy`): a visitor's first load of / carries
 * only the layout and the status page; every other page, and what it alone needs, is its own chunk.
 */
const page = (load: () => Promise<ComponentType>) => async () => ({ Component: await load() });

/**
 * Every lazy route's own fallback while its chunk loads on the first visit: the layout (header, footer)
 * stays, the page area waits (and React Router does not warn "No `HydrateFallback` element provided").
 */
const lazyRoute = (path: string, load: () => Promise<ComponentType>): RouteObject => ({
  path,
  lazy: page(load),
  HydrateFallback: PageLoading,
});

/** Every route of the spec (§2), under one root layout; any other path goes to `/`. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <StatusPage /> },
      lazyRoute('/about', async () => (await import('./pages/AboutPage.tsx')).AboutPage),
      lazyRoute('/ping', async () => (await import('./pages/PingPage.tsx')).PingPage),
      lazyRoute('/login', async () => (await import('./pages/LoginPage.tsx')).LoginPage),
      lazyRoute('/logout', async () => (await import('./pages/LogoutPage.tsx')).LogoutPage),
      lazyRoute(
        '/connect/spotify',
        async () => (await import('./pages/ConnectSpotifyPage.tsx')).ConnectSpotifyPage,
      ),
      lazyRoute(
        '/disconnect/spotify',
        async () => (await import('./pages/DisconnectSpotifyPage.tsx')).DisconnectSpotifyPage,
      ),
      // Beside the spec's pages: the runner's paces, filters, tempo chart and "refresh now".
      lazyRoute('/paces', async () => (await import('./pages/PacesPage.tsx')).PacesPage),
      // and a target's tracks, and the Excluded list.
      lazyRoute(
        '/targets/:targetId',
        async () => (await import('./pages/TargetTracksPage.tsx')).TargetTracksPage,
      ),
      lazyRoute('/excluded', async () => (await import('./pages/ExcludedPage.tsx')).ExcludedPage),
      // Runs: a workout's parts built into one playlist from the runner's songs.
      lazyRoute('/runs', async () => (await import('./pages/RunsPage.tsx')).RunsPage),
      lazyRoute('/runs/:runId', async () => (await import('./pages/RunPage.tsx')).RunPage),
      // The admin's setup page: connecting a real Spotify app.
      lazyRoute(
        '/setup/spotify',
        async () => (await import('./pages/SetupSpotifyPage.tsx')).SetupSpotifyPage,
      ),
      // The admin page: who may sign up, invitations, and the runners against Spotify's 5.
      lazyRoute('/admin', async () => (await import('./pages/AdminPage.tsx')).AdminPage),
      { path: '*', element: <SudoNavigate to="/" /> },
    ],
  },
];
