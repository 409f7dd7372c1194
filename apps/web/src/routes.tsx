import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { RootLayout } from './layout/RootLayout.tsx';
import { StatusPage } from './pages/StatusPage.tsx';
import { SudoNavigate } from './session/sudo-navigation.tsx';

/**
 * A page loaded on first visit (React Router's route-level `lazy`): a visitor's first load of / carries
 * only the layout and the status page; every other page, and what it alone needs, is its own chunk.
 */
const page = (load: () => Promise<ComponentType>) => async () => ({ Component: await load() });

/** Every route of the spec (§2), under one root layout; any other path goes to `/`. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <StatusPage /> },
      { path: '/about', lazy: page(async () => (await import('./pages/AboutPage.tsx')).AboutPage) },
      { path: '/ping', lazy: page(async () => (await import('./pages/PingPage.tsx')).PingPage) },
      { path: '/login', lazy: page(async () => (await import('./pages/LoginPage.tsx')).LoginPage) },
      { path: '/logout', lazy: page(async () => (await import('./pages/LogoutPage.tsx')).LogoutPage) },
      {
        path: '/connect/spotify',
        lazy: page(async () => (await import('./pages/ConnectSpotifyPage.tsx')).ConnectSpotifyPage),
      },
      {
        path: '/disconnect/spotify',
        lazy: page(async () => (await import('./pages/DisconnectSpotifyPage.tsx')).DisconnectSpotifyPage),
      },
      // Beside the spec's pages (issue 15): the runner's paces, filters, tempo chart and "refresh now".
      { path: '/paces', lazy: page(async () => (await import('./pages/PacesPage.tsx')).PacesPage) },
      // and a target's tracks, and the Excluded list.
      {
        path: '/targets/:targetId',
        lazy: page(async () => (await import('./pages/TargetTracksPage.tsx')).TargetTracksPage),
      },
      { path: '/excluded', lazy: page(async () => (await import('./pages/ExcludedPage.tsx')).ExcludedPage) },
      { path: '*', element: <SudoNavigate to="/" /> },
    ],
  },
];
