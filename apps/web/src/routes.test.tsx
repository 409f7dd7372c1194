import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonReply, renderApp, visitorApi } from './test/render-app.tsx';
import { whoamiReply } from './test/status-fixtures.ts';

describe('routes', () => {
  it('redirects an unknown path to /', async () => {
    const { router } = renderApp('/no/such/page?x=1', visitorApi);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(router.state.location.search).toBe('');
    expect(await screen.findByRole('link', { name: 'Log in or register' })).toBeTruthy();
  });

  // /login and /logout: pages/LoginPage.test.tsx and pages/LogoutPage.test.tsx.
  it.each([
    ['/about', 'About Pacebeat'],
    ['/connect/spotify', 'Welcome!'],
    ['/disconnect/spotify', 'Disconnect from Spotify'],
  ])('serves %s under the root layout', async (path, heading) => {
    // Connect and disconnect are for signed-in users: the first without Spotify, the second with it.
    const connected = path === '/disconnect/spotify';
    const { router } = renderApp(path, (url, init) =>
      url.startsWith('/api/whoami') && path.includes('connect/')
        ? jsonReply(200, whoamiReply({ connected }))
        : visitorApi(url, init),
    );
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    expect(router.state.location.pathname).toBe(path);
    expect(screen.getByRole('banner').textContent).toContain('Pacebeat');
    expect(screen.getByRole('contentinfo').textContent).toMatch(/v0\.6-3 · build \S+/);
  });

  it.each(['/connect/spotify', '/disconnect/spotify'])('sends a visitor on %s to /login', async (path) => {
    const { router } = renderApp(path, visitorApi);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(screen.queryByText('Not signed in.')).toBeNull();
  });

  // The track lists are for signed-in users too, and once said "Not signed in." to a visitor.
  it.each(['/targets/3f1c2b7e-0000-4000-8000-000000000001', '/excluded'])(
    'sends a visitor on %s to /login without calling the API for it',
    async (path) => {
      const { router, fetchMock } = renderApp(path, visitorApi);
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
      expect(screen.queryByText(/Not signed in/)).toBeNull();
      const called = fetchMock.mock.calls.map(([p]) => String(p));
      expect(called.some((p) => p.includes('/tracks') || p.includes('/exclusions'))).toBe(false);
    },
  );
});
