import type { RouteObject } from 'react-router';
import { RootLayout } from './layout/RootLayout.tsx';
import { AboutPage } from './pages/AboutPage.tsx';
import { ConnectSpotifyPage } from './pages/ConnectSpotifyPage.tsx';
import { DisconnectSpotifyPage } from './pages/DisconnectSpotifyPage.tsx';
import { LoginPage } from './pages/LoginPage.tsx';
import { LogoutPage } from './pages/LogoutPage.tsx';
import { PingPage } from './pages/PingPage.tsx';
import { StatusPage } from './pages/StatusPage.tsx';
import { SudoNavigate } from './session/sudo-navigation.tsx';

/** Every route of the spec (§2), under one root layout; any other path goes to `/`. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <StatusPage /> },
      { path: '/about', element: <AboutPage /> },
      { path: '/ping', element: <PingPage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/logout', element: <LogoutPage /> },
      { path: '/connect/spotify', element: <ConnectSpotifyPage /> },
      { path: '/disconnect/spotify', element: <DisconnectSpotifyPage /> },
      { path: '*', element: <SudoNavigate to="/" /> },
    ],
  },
];
