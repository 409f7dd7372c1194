import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, visitorApi } from './test/render-app.tsx';

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
    const { router } = renderApp(path, visitorApi);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    expect(router.state.location.pathname).toBe(path);
    expect(screen.getByRole('banner').textContent).toContain('Pacebeat');
    expect(screen.getByRole('contentinfo').textContent).toMatch(/v0\.6-3 · build \S+/);
  });
});
