import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SPOTIFY_ERRORS, SPOTIFY_SCOPES } from '@pacebeat/contract';
import { markConnecting } from '../session/connect-memory.ts';
import { challengeOf, readPending, savePending } from '../spotify/pkce.ts';
import { SPOTIFY_TEXTS as T } from '../spotify/texts.ts';
import { errorReply, jsonReply, renderApp, type FakeApi, preloadPage } from '../test/render-app.tsx';

const whoami = (sudo: string | null = null, extra: object = {}) =>
  jsonReply(200, {
    data: {
      authenticated: true,
      user: { id: 'u1', email: 'runner@example.com', name: 'Runner', is_admin: sudo !== null },
      services: { spotify: { connected: false, demo: true, work_resumes_at: null } },
      disabled_services: [],
      sudo,
      ...extra,
    },
  });
const connectData = () =>
  jsonReply(200, {
    data: {
      client_id: 'pacebeat-demo',
      scopes: [...SPOTIFY_SCOPES],
      authorize_url: 'http://127.0.0.1:9/spotify/accounts/authorize',
      token_url: 'http://127.0.0.1:9/spotify/accounts/api/token',
      demo: true,
      redirect_uri: 'http://127.0.0.1:8080/connect/spotify',
    },
  });
const TOKEN_REPLY = {
  access_token: 'BQ-access',
  token_type: 'Bearer',
  scope: SPOTIFY_SCOPES.join(' '),
  expires_in: 3600,
  refresh_token: 'AQ-refresh',
};
const pending = {
  verifier: 'V'.repeat(64),
  client_id: 'pacebeat-demo',
  state: 'STATE1',
  token_url: 'http://127.0.0.1:9/spotify/accounts/api/token',
  redirect_uri: 'http://localhost:3000/connect/spotify',
};

afterEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

/** Every location the router goes through (the session provider strips `?refresh` once it has read it). */
function visited(router: {
  subscribe: (f: (s: { location: { pathname: string; search: string } }) => void) => unknown;
}) {
  const seen: string[] = [];
  router.subscribe((s) => seen.push(s.location.pathname + s.location.search));
  return seen;
}

beforeAll(() => preloadPage('/connect/spotify'), 120_000);

describe('ConnectSpotifyPage', () => {
  it('initial view: Welcome!, the explanation, terms and privacy, and the green button that starts PKCE', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({
      ...window.location,
      assign,
      origin: 'http://127.0.0.1:8080',
    });
    const { fetchMock } = renderApp('/connect/spotify', (path) =>
      path.startsWith('/api/whoami') ? whoami() : connectData(),
    );
    expect(await screen.findByRole('heading', { name: T.welcome })).toBeTruthy();
    expect(screen.getByText(T.explanation)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Terms of service' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Privacy policy' })).toBeTruthy();
    const button = screen.getByRole('button', { name: T.connectButton });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(button);
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1));
    const url = new URL(String(assign.mock.calls[0]![0]));
    const stored = readPending()!;
    expect(stored.verifier).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(stored.client_id).toBe('pacebeat-demo');
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:9/spotify/accounts/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'pacebeat-demo',
      scope: SPOTIFY_SCOPES.join(' '),
      code_challenge_method: 'S256',
      code_challenge: await challengeOf(stored.verifier),
      redirect_uri: 'http://127.0.0.1:8080/connect/spotify',
      state: stored.state,
    });
    // The page names the address it is open at; the redirect URI is the server's answer for it.
    expect(fetchMock.mock.calls.map(([p]) => String(p))).toContain(
      '/api/spotify/connect_data?page_origin=http%3A%2F%2F127.0.0.1%3A8080',
    );
  });

  it('an address Spotify would not send the runner back to: the server’s message, and no way to leave', async () => {
    const refused =
      'Spotify does not accept localhost addresses, so it cannot send you back to this page. Open http://127.0.0.1:5173/connect/spotify instead.';
    renderApp('/connect/spotify', (path) =>
      path.startsWith('/api/whoami')
        ? whoami()
        : path.startsWith('/api/spotify/connect_data')
          ? errorReply(400, SPOTIFY_ERRORS.redirectRefused, refused)
          : errorReply(404, 'NotFound', 'Not found'),
    );
    expect(await screen.findByText(refused)).toBeTruthy();
    const button = screen.getByRole('button', { name: T.connectButton });
    expect((button as HTMLButtonElement).disabled).toBe(true);
  });

  it('in sudo mode shows the sudo note instead of the button', async () => {
    renderApp('/connect/spotify?sudo=bob%40example.com', (path) =>
      path.startsWith('/api/whoami') ? whoami('bob@example.com') : connectData(),
    );
    expect(await screen.findByText(T.sudoNote)).toBeTruthy();
    expect(screen.queryByRole('button', { name: T.connectButton })).toBeNull();
  });

  it('with a code: exchanges it from the browser (form-encoded), PUTs the token reply, then success and Proceed', async () => {
    savePending(pending);
    const calls: { path: string; init: RequestInit | undefined }[] = [];
    const api: FakeApi = (path, init) => {
      calls.push({ path, init });
      if (path.startsWith('/api/whoami')) return whoami();
      if (path === pending.token_url) return jsonReply(200, TOKEN_REPLY);
      if (path.startsWith('/api/spotify/connect'))
        return jsonReply(200, { data: { connected: true, display_name: 'Ana' } });
      return errorReply(404, 'NotFound', 'Not found');
    };
    const { router } = renderApp('/connect/spotify?code=CODE1&state=STATE1', api);
    expect(await screen.findByText(T.processing)).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('')); // code and state removed from the URL
    expect(await screen.findByText(T.connected)).toBeTruthy();
    const exchange = calls.find((c) => c.path === pending.token_url)!;
    expect(exchange.init?.method).toBe('POST');
    expect((exchange.init?.headers as Record<string, string>)['Content-Type']).toBe(
      'application/x-www-form-urlencoded',
    );
    expect(Object.fromEntries(new URLSearchParams(String(exchange.init?.body)))).toEqual({
      client_id: 'pacebeat-demo',
      grant_type: 'authorization_code',
      code: 'CODE1',
      redirect_uri: pending.redirect_uri,
      code_verifier: pending.verifier,
    });
    const put = calls.find((c) => c.path.startsWith('/api/spotify/connect'))!;
    expect(put.init?.method).toBe('PUT');
    expect(JSON.parse(String(put.init?.body))).toEqual({ token_info: TOKEN_REPLY });
    expect(readPending()).toBeNull(); // verifier and client id removed after use
    const seen = visited(router);
    fireEvent.click(screen.getByRole('button', { name: T.proceed }));
    await waitFor(() => expect(seen).toContain('/?refresh'));
  });

  it('a connect that takes a while says the server may be waiting for a free Spotify call', async () => {
    savePending(pending);
    let answer: (r: Response) => void = () => undefined;
    const api: FakeApi = (path) => {
      if (path.startsWith('/api/whoami')) return whoami();
      if (path === pending.token_url) return jsonReply(200, TOKEN_REPLY);
      if (path.startsWith('/api/spotify/connect')) return new Promise<Response>((r) => (answer = r));
      return errorReply(404, 'NotFound', 'Not found');
    };
    renderApp('/connect/spotify?code=CODE3&state=STATE1', api);
    expect(await screen.findByText(T.processing)).toBeTruthy();
    expect(screen.queryByText(T.waitingForSlot)).toBeNull();
    expect(await screen.findByText(T.waitingForSlot, {}, { timeout: 5000 })).toBeTruthy();
    answer(jsonReply(200, { data: { connected: true, display_name: 'Ana' } }));
    expect(await screen.findByText(T.connected)).toBeTruthy();
    expect(screen.queryByText(T.waitingForSlot)).toBeNull();
  });

  it('a failed token exchange is only logged: the page stays in got_code', async () => {
    savePending(pending);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api: FakeApi = (path) => {
      if (path.startsWith('/api/whoami')) return whoami();
      if (path === pending.token_url) return jsonReply(400, { error: 'invalid_grant' });
      return jsonReply(200, { data: { connected: true, display_name: 'x' } });
    };
    const { fetchMock } = renderApp('/connect/spotify?code=CODE2&state=STATE1', api);
    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(screen.getByText(T.processing)).toBeTruthy();
    expect(fetchMock.mock.calls.some(([p]) => String(p).startsWith('/api/spotify/connect'))).toBe(false);
  });

  it('with an error: the error view, the parameter removed, and Proceed', async () => {
    savePending(pending);
    const { router } = renderApp('/connect/spotify?error=access_denied&state=STATE1', (path) =>
      path.startsWith('/api/whoami') ? whoami() : errorReply(404, 'NotFound', 'Not found'),
    );
    expect(await screen.findByText(T.connectError)).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(readPending()).toBeNull();
    expect(screen.getByRole('button', { name: T.proceed })).toBeTruthy();
  });

  it('a code that does not answer this tab’s request (state) is not taken in', async () => {
    savePending(pending);
    const { fetchMock } = renderApp('/connect/spotify?code=CODE3&state=FORGED', (path) =>
      path.startsWith('/api/whoami')
        ? whoami()
        : path.startsWith('/api/tempo/credits')
          ? jsonReply(200, { data: { getsongbpm: false } })
          : jsonReply(200, TOKEN_REPLY),
    );
    expect(await screen.findByText(T.unknownState)).toBeTruthy();
    expect(fetchMock.mock.calls.some(([p]) => String(p) === pending.token_url)).toBe(false);
  });

  // Once, after the refusal, Proceed → / → /connect/spotify said "Welcome!" and no longer why.
  it('keeps Spotify’s refusal of the account on the Welcome page after leaving it', async () => {
    savePending(pending);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reason = 'Spotify refused this account: it is not on this app’s list of users.';
    const api: FakeApi = (path) => {
      if (path.startsWith('/api/whoami')) return whoami();
      if (path === pending.token_url) return jsonReply(200, TOKEN_REPLY);
      if (path.startsWith('/api/spotify/connect_data')) return connectData();
      if (path.startsWith('/api/spotify/connect'))
        return errorReply(403, SPOTIFY_ERRORS.accountRefused, reason);
      return errorReply(404, 'NotFound', 'Not found');
    };
    const first = renderApp('/connect/spotify?code=CODE9&state=STATE1', api);
    expect(await screen.findByText(new RegExp(reason.slice(0, 30)))).toBeTruthy();
    first.unmount();
    renderApp('/connect/spotify', api);
    expect(await screen.findByRole('heading', { name: T.welcome })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain(`Reason: ${reason.replace(/\.$/, '')}.`);
  });

  // Once, a reload during "Processing authorization result…" showed "Welcome!" though the connect finished.
  it('after a reload during processing, waits for whoami and shows the connect that finished', async () => {
    markConnecting();
    let whoamis = 0;
    const api: FakeApi = (path) => {
      if (path.startsWith('/api/whoami')) {
        whoamis += 1;
        return whoami(null, {
          services: { spotify: { connected: whoamis > 1, demo: true, work_resumes_at: null } },
        });
      }
      if (path.startsWith('/api/spotify/connect_data')) return connectData();
      return errorReply(404, 'NotFound', 'Not found');
    };
    renderApp('/connect/spotify', api);
    expect(await screen.findByText(T.processing)).toBeTruthy();
    expect(screen.queryByRole('heading', { name: T.welcome })).toBeNull();
    expect(await screen.findByText(T.connected, undefined, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: T.proceed })).toBeTruthy();
  });
});
