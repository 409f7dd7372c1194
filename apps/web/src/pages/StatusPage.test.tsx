import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorReply, jsonReply, renderApp, visitorApi, type FakeApi } from '../test/render-app.tsx';
import { queryKeys } from '../api/query-keys.ts';
import { INTERNAL_ERROR_TEXT } from './StatusPage.tsx';

const signedIn: FakeApi = (path) =>
  path.startsWith('/api/spotify/targets')
    ? jsonReply(200, { data: { targets: [] } })
    : path.startsWith('/api/spotify/sources')
      ? jsonReply(200, {
          data: { sources: [], summary: { tracks_known: 0, tracks_with_tempo: 0, tracks_without_tempo: 0 } },
        })
      : path.startsWith('/api/whoami')
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

  it('offers a signed-in user /disconnect/spotify and /logout in the account menu, a visitor /login', async () => {
    renderApp('/', signedIn);
    const account = await screen.findByRole('button', { name: 'Account: Runner' });
    fireEvent.click(account);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Signed in as Runner')).toBeTruthy();
    const hrefs = within(menu)
      .getAllByRole('menuitem')
      .map((a) => a.getAttribute('href'))
      .filter(Boolean);
    expect(hrefs).toEqual(['/paces', '/runs', '/excluded', '/disconnect/spotify', '/logout']);
    expect(screen.queryByRole('link', { name: 'Log in or register' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Log in' })).toBeNull();
  });

  it('offers a visitor "Log in" in the header', async () => {
    renderApp('/', visitorApi);
    const login = await screen.findByRole('link', { name: 'Log in' });
    expect(login.getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('button', { name: /^Account/ })).toBeNull();
  });

  it('sends the page URL sudo value with every API call, and in-app links keep it in the URL', async () => {
    const { fetchMock, router } = renderApp('/?sudo=alice%40example.com', signedIn);
    await screen.findByRole('heading', { name: 'Target playlists' });
    const urls = () => fetchMock.mock.calls.map(([url]) => String(url));
    expect(urls()).toContain('/api/whoami?sudo=alice%40example.com');
    expect(urls()).toContain('/api/spotify/targets?sudo=alice%40example.com');
    expect(urls()).toContain('/api/spotify/sources?sudo=alice%40example.com');
    const about = within(screen.getByRole('contentinfo')).getByRole('link', { name: 'About Pacebeat' });
    expect(about.getAttribute('href')).toBe('/about?sudo=alice%40example.com');
    await router.navigate(about.getAttribute('href')!);
    await screen.findByRole('heading', { name: 'About Pacebeat', level: 1 });
    expect(router.state.location.search).toBe('?sudo=alice%40example.com');
    await router.navigate('/ping?sudo=alice%40example.com');
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
    await screen.findByRole('heading', { name: 'Target playlists' });
    expect(calls).toBe(2);
    expect(router.state.location.search).toBe('');
  });
});
