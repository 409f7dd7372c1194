import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorReply, jsonReply, renderApp, visitorApi, type FakeApi } from '../test/render-app.tsx';
import { queryKeys } from '../api/query-keys.ts';
import { INTERNAL_ERROR_TEXT } from './StatusPage.tsx';

const signedIn: FakeApi = (path) =>
  path.startsWith('/api/whoami')
    ? jsonReply(200, {
        data: {
          authenticated: true,
          user: { id: 'u1', email: 'runner@example.com', name: 'Runner', is_admin: false },
          services: { spotify: { connected: true } },
          disabled_services: [],
          sudo: null,
        },
      })
    : path.startsWith('/api/ping')
      ? jsonReply(200, { message: 'pong' })
      : errorReply(404, 'NotFound', 'Not found');

describe('StatusPage', () => {
  it('treats a 401 from whoami as a visitor: login button, then the About text', async () => {
    renderApp('/', visitorApi);
    const login = await screen.findByRole('link', { name: 'Log in or register' });
    expect(login.getAttribute('href')).toBe('/login');
    const main = screen.getByRole('main');
    expect(main.textContent).toContain('made by a runner, for runners');
    expect(main.textContent).not.toContain(INTERNAL_ERROR_TEXT);
    // The About text comes below the button.
    const about = screen.getByRole('region', { name: 'About Pacebeat' });
    expect(login.compareDocumentPosition(about) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows the internal-error text when whoami fails with something other than 401', async () => {
    const { queryClient } = renderApp('/', () =>
      errorReply(500, 'InternalServerError', 'Internal Server Error'),
    );
    // The text also shows while loading: wait until the failed answer has been taken in.
    await waitFor(() =>
      expect(queryClient.getQueryState(queryKeys.session.whoami(null))?.status).toBe('error'),
    );
    expect(screen.getByRole('main').textContent).toBe(INTERNAL_ERROR_TEXT);
    expect(screen.queryByRole('link', { name: 'Log in or register' })).toBeNull();
  });

  it('shows the navigation to a signed-in user', async () => {
    renderApp('/', signedIn);
    const nav = await screen.findByRole('navigation', { name: 'Account' });
    const hrefs = Array.from(nav.querySelectorAll('a')).map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['/logout', '/login', '/disconnect/spotify']);
    expect(screen.queryByRole('link', { name: 'Log in or register' })).toBeNull();
  });

  it('sends the page URL sudo value with every API call, also after leaving the page', async () => {
    const { fetchMock, router } = renderApp('/?sudo=alice%40example.com', signedIn);
    await screen.findByRole('navigation', { name: 'Account' });
    const urls = () => fetchMock.mock.calls.map(([url]) => String(url));
    expect(urls()).toContain('/api/whoami?sudo=alice%40example.com');
    await router.navigate('/ping');
    await waitFor(() => expect(urls()).toContain('/api/ping?sudo=alice%40example.com'));
    // The footer's credits call included.
    expect(urls()).toContain('/api/tempo/credits?sudo=alice%40example.com');
    expect(urls().every((url) => url.endsWith('?sudo=alice%40example.com'))).toBe(true);
  });

  it('re-reads the session on /?refresh and drops the flag from the URL', async () => {
    let calls = 0;
    const { router } = renderApp('/', (path) => {
      if (path.startsWith('/api/whoami')) calls += 1;
      return calls >= 2 ? signedIn(path, undefined) : visitorApi(path, undefined);
    });
    await screen.findByRole('link', { name: 'Log in or register' });
    await router.navigate('/?refresh');
    await screen.findByRole('navigation', { name: 'Account' });
    expect(calls).toBe(2);
    expect(router.state.location.search).toBe('');
  });
});
