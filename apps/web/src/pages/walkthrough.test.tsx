// A walk-through of the app: each finding, fixed, with the behaviour a user sees.
import { SPOTIFY_ERRORS, SPOTIFY_SCOPES } from '@pacebeat/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { savePending } from '../spotify/pkce.ts';
import { SPOTIFY_TEXTS as T } from '../spotify/texts.ts';
import { errorReply, jsonReply, renderApp, type FakeApi } from '../test/render-app.tsx';
import { statusApi, whoamiReply } from '../test/status-fixtures.ts';

afterEach(() => {
  vi.useRealTimers();
  sessionStorage.clear();
});

describe('3. a refused ?sudo says what happened and offers the way out', () => {
  it.each([
    [403, 'SudoForbidden', 'Only admins may use sudo.'],
    [404, 'SudoUserNotFound', 'No user "nobody@example.org".'],
  ])('%s %s: the message, "Leave sudo mode", and no retries', async (status, code, message) => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let whoamiCalls = 0;
    const { router } = renderApp('/about?sudo=nobody%40example.org', (path) => {
      if (!path.startsWith('/api/whoami')) return jsonReply(200, { data: { getsongbpm: false } });
      whoamiCalls += 1;
      return path.includes('sudo=') ? errorReply(status, code, message) : jsonReply(200, whoamiReply());
    });
    expect(await screen.findByText('You cannot view Pacebeat as "nobody@example.org"')).toBeTruthy();
    expect(screen.getByText(message)).toBeTruthy();
    expect(screen.queryByText('(Internal error occured! should not be here!)')).toBeNull();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(whoamiCalls).toBe(1);
    const leave = screen.getByRole('link', { name: 'Leave sudo mode' });
    expect(leave.getAttribute('href')).toBe('/about');
    fireEvent.click(leave);
    expect(await screen.findByRole('heading', { name: 'About Pacebeat', level: 1 })).toBeTruthy();
    expect(router.state.location.search).toBe('');
  });
});

describe('4. sudo mode is visible, and the URL and the state stay in step', () => {
  it('shows "Viewing as", keeps ?sudo in links, and leaving drops it from the URL and the calls', async () => {
    const { api } = statusApi({
      whoami: () => jsonReply(200, whoamiReply({ sudo: 'runner@example.com' })),
    });
    const { router, fetchMock } = renderApp('/?sudo=runner%40example.com', api);
    const banner = await screen.findByRole('status', { name: 'Sudo mode' });
    expect(banner.textContent).toContain('Viewing as Ria Runner (runner@example.com)');
    expect(await screen.findByRole('heading', { name: 'Running playlists of Ria Runner' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Account: Ria Runner' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Disconnect Spotify' }).getAttribute('href')).toBe(
      '/disconnect/spotify?sudo=runner%40example.com',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Leave sudo mode' }).getAttribute('href')).toBe('/');
    fireEvent.keyDown(menu, { key: 'Escape' });
    fetchMock.mockClear();
    fireEvent.click(within(banner).getByRole('link', { name: 'Leave sudo mode' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Sudo mode' })).toBeNull());
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    for (const [url] of fetchMock.mock.calls) expect(String(url)).not.toContain('sudo=');
  });
});

describe('5. a Spotify account that is not on the app’s user list', () => {
  const TOKEN = {
    access_token: 'BQ',
    token_type: 'Bearer',
    scope: SPOTIFY_SCOPES.join(' '),
    expires_in: 3600,
    refresh_token: 'AQ',
  };
  const REASON =
    'Your Spotify account is not on this app’s user list in the Spotify Developer Dashboard. Ask whoever runs this Pacebeat to add it, then connect again.';

  function returnFromSpotify(code: string, connect: () => Response) {
    savePending({
      verifier: 'V'.repeat(64),
      client_id: 'c',
      state: 'S1',
      token_url: 'http://127.0.0.1:9/token',
      redirect_uri: 'http://127.0.0.1:8080/connect/spotify',
    });
    const api: FakeApi = (path) => {
      if (path.startsWith('/api/whoami')) return jsonReply(200, whoamiReply({ connected: false }));
      if (path === 'http://127.0.0.1:9/token') return jsonReply(200, TOKEN);
      if (path.startsWith('/api/spotify/connect_data'))
        return jsonReply(200, {
          data: {
            client_id: 'c',
            scopes: [],
            authorize_url: 'http://x/a',
            token_url: 'http://x/t',
            demo: true,
          },
        });
      if (path.startsWith('/api/spotify/connect')) return connect();
      return jsonReply(200, { data: { getsongbpm: false } });
    };
    return renderApp(`/connect/spotify?code=${code}&state=S1`, api);
  }

  it('shows the disabled-service alert with the reason, a way to try again, and Proceed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { router } = returnFromSpotify('C1', () => errorReply(403, SPOTIFY_ERRORS.accountRefused, REASON));
    const alert = await screen.findByText(/is in disabled state in your account/);
    expect(alert.closest('[role="alert"]')?.textContent).toBe(
      `Service "spotify" is in disabled state in your account. Reason: ${REASON.replace(/\.$/, '')}. You may try to reconnect to it.`,
    );
    expect(screen.queryByText(T.processing)).toBeNull();
    expect(screen.getByRole('button', { name: T.proceed })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'reconnect to it' }));
    expect(await screen.findByRole('heading', { name: T.welcome })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/connect/spotify');
  });

  it('another failure: a plain message (never the raw one), Try again and Proceed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    returnFromSpotify('C2', () =>
      errorReply(400, 'ValidationError', 'body: token_info.scope: Too big: expected'),
    );
    expect(
      await screen.findByText('Something you entered was not accepted. Please check it and try again.'),
    ).toBeTruthy();
    expect(screen.queryByText(/Too big/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.getByRole('button', { name: T.proceed })).toBeTruthy();
  });
});

describe('6 and 7. connect and disconnect fit the state', () => {
  it('the unknown-state connect page offers Proceed', async () => {
    const { router } = renderApp('/connect/spotify?code=C9&error=x', () => jsonReply(200, whoamiReply()));
    expect(await screen.findByText(T.unknownState)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: T.proceed }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('connected: /connect/spotify says so instead of inviting to connect', async () => {
    renderApp('/connect/spotify', (path) =>
      path.startsWith('/api/whoami')
        ? jsonReply(200, whoamiReply())
        : jsonReply(200, { data: { getsongbpm: false } }),
    );
    expect(await screen.findByRole('heading', { name: 'Spotify is connected' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: T.connectButton })).toBeNull();
    expect(screen.getByRole('link', { name: 'Disconnect Spotify' }).getAttribute('href')).toBe(
      '/disconnect/spotify',
    );
  });

  it('connected but disabled: /connect/spotify invites to reconnect', async () => {
    renderApp('/connect/spotify', (path) =>
      path.startsWith('/api/whoami')
        ? jsonReply(200, whoamiReply({ disabled: [{ service: 'spotify', reason: 'Revoked' }] }))
        : jsonReply(200, {
            data: {
              client_id: 'c',
              scopes: [],
              authorize_url: 'http://x/a',
              token_url: 'http://x/t',
              demo: true,
            },
          }),
    );
    expect(await screen.findByRole('heading', { name: T.welcome })).toBeTruthy();
  });

  it('not connected: /disconnect/spotify offers to connect, never to disconnect', async () => {
    const { fetchMock } = renderApp('/disconnect/spotify', (path) =>
      path.startsWith('/api/whoami')
        ? jsonReply(200, whoamiReply({ connected: false }))
        : jsonReply(200, { data: { getsongbpm: false } }),
    );
    expect(await screen.findByText(T.notConnected)).toBeTruthy();
    expect(screen.queryByRole('button', { name: T.disconnectButton })).toBeNull();
    expect(screen.getByRole('link', { name: 'Connect Spotify' }).getAttribute('href')).toBe(
      '/connect/spotify',
    );
    expect(fetchMock.mock.calls.map(([u]) => String(u))).not.toContain('/api/spotify/disconnect');
  });

  it('the menu offers Connect Spotify when nothing is connected', async () => {
    renderApp('/about', (path) =>
      path.startsWith('/api/whoami')
        ? jsonReply(200, whoamiReply({ connected: false }))
        : jsonReply(200, { data: { getsongbpm: false } }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Account: Ria Runner' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Connect Spotify' }).getAttribute('href')).toBe(
      '/connect/spotify',
    );
    expect(within(menu).queryByRole('menuitem', { name: 'Disconnect Spotify' })).toBeNull();
  });
});

describe('8. a signed-in side that feels finished', () => {
  it('success screens are alerts, like errors', async () => {
    renderApp('/disconnect/spotify', (path) =>
      path.startsWith('/api/whoami')
        ? jsonReply(200, whoamiReply())
        : path.startsWith('/api/spotify/disconnect')
          ? jsonReply(200, { data: { disconnected: true } })
          : jsonReply(200, { data: { getsongbpm: false } }),
    );
    fireEvent.click(await screen.findByRole('button', { name: T.disconnectButton }));
    const done = await screen.findByText(T.disconnected);
    expect(done.closest('.MuiAlert-standardSuccess, .MuiAlert-colorSuccess')).not.toBeNull();
  });

  it('every page has its own title', async () => {
    const { router } = renderApp('/about', () => errorReply(401, 'Unauthorized', 'No'));
    await waitFor(() => expect(document.title).toBe('About · Pacebeat'));
    await router.navigate('/login');
    await waitFor(() => expect(document.title).toBe('Log in or register · Pacebeat'));
  });

  it('the demo banner speaks to runners, in one short line', async () => {
    renderApp('/about', () =>
      jsonReply(200, {
        data: {
          ...whoamiReply().data,
          services: { spotify: { connected: true, demo: true, work_resumes_at: null } },
        },
      }),
    );
    const banner = await screen.findByRole('status', { name: 'Demo mode' });
    expect(banner.textContent).toBe(T.demoBanner);
    expect(T.demoBanner).not.toMatch(/SPOTIFY_CLIENT_ID|Set /);
    expect(T.demoBanner.length).toBeLessThan(80);
  });
});
