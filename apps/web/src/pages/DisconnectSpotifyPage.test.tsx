import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { SPOTIFY_TEXTS as T } from '../spotify/texts.ts';
import { errorReply, jsonReply, renderApp, type FakeApi, preloadPage } from '../test/render-app.tsx';

const whoami = (sudo: string | null = null) =>
  jsonReply(200, {
    data: {
      authenticated: true,
      user: { id: 'u1', email: 'runner@example.com', name: 'Runner', is_admin: sudo !== null },
      services: { spotify: { connected: true } },
      disabled_services: [],
      sudo,
    },
  });

/** Every location the router goes through (the session provider strips `?refresh` once it has read it). */
function visited(router: {
  subscribe: (f: (s: { location: { pathname: string; search: string } }) => void) => unknown;
}) {
  const seen: string[] = [];
  router.subscribe((s) => seen.push(s.location.pathname + s.location.search));
  return seen;
}

beforeAll(() => preloadPage('/disconnect/spotify'), 120_000);

describe('DisconnectSpotifyPage', () => {
  it('explains, disconnects with PUT, says so, and Proceed goes to /?refresh', async () => {
    const puts: string[] = [];
    const api: FakeApi = (path, init) => {
      if (path.startsWith('/api/whoami')) return whoami();
      if (path.startsWith('/api/spotify/disconnect') && init?.method === 'PUT') {
        puts.push(path);
        return jsonReply(200, { data: { disconnected: true } });
      }
      return errorReply(404, 'NotFound', 'Not found');
    };
    const { router } = renderApp('/disconnect/spotify', api);
    expect(await screen.findByText(T.disconnectExplanation)).toBeTruthy();
    expect(screen.getByText(/Connecting again later reads your library anew/).textContent).toContain(
      'may wait until tomorrow',
    );
    fireEvent.click(screen.getByRole('button', { name: T.disconnectButton }));
    expect(await screen.findByText(T.disconnected)).toBeTruthy();
    expect(puts).toEqual(['/api/spotify/disconnect']);
    const seen = visited(router);
    fireEvent.click(screen.getByRole('button', { name: T.proceed }));
    await waitFor(() => expect(seen).toContain('/?refresh'));
  });

  it('Cancel disconnect goes to /?refresh without calling the server', async () => {
    const { router, fetchMock } = renderApp('/disconnect/spotify', (path) =>
      path.startsWith('/api/whoami') ? whoami() : errorReply(404, 'NotFound', 'Not found'),
    );
    const cancel = await screen.findByRole('button', { name: T.cancelDisconnect });
    const seen = visited(router);
    fireEvent.click(cancel);
    await waitFor(() => expect(seen).toContain('/?refresh'));
    expect(fetchMock.mock.calls.some(([p]) => String(p).includes('disconnect'))).toBe(false);
  });

  it('in sudo mode both buttons are hidden and the sudo note shows', async () => {
    renderApp('/disconnect/spotify?sudo=bob%40example.com', () => whoami('bob@example.com'));
    expect(await screen.findByText(T.sudoNote)).toBeTruthy();
    expect(screen.queryByRole('button', { name: T.disconnectButton })).toBeNull();
    expect(screen.queryByRole('button', { name: T.cancelDisconnect })).toBeNull();
  });
});
