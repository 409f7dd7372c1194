import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { errorReply, jsonReply, renderApp } from '../test/render-app.tsx';

const signedIn = (sudo: string | null = null) => ({
  data: {
    authenticated: true,
    user: { id: 'u1', email: 'r@example.org', name: 'R', is_admin: false },
    services: { spotify: { connected: true } },
    disabled_services: [],
    sudo,
  },
});

describe('SessionProvider (the user status of spec §3)', () => {
  it('re-reads the session for ?refresh and drops the flag from the URL', async () => {
    let whoamiCalls = 0;
    const { router } = renderApp('/about', (path) => {
      if (path.startsWith('/api/whoami')) {
        whoamiCalls += 1;
        return jsonReply(200, signedIn());
      }
      return errorReply(404, 'NotFound', 'no');
    });
    await waitFor(() => expect(whoamiCalls).toBe(1));
    await router.navigate('/about?refresh');
    await waitFor(() => expect(whoamiCalls).toBe(2));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('appends the sudo value to every API URL', async () => {
    const urls: string[] = [];
    renderApp('/ping?sudo=bob%40example.org', (path) => {
      urls.push(path);
      return path.startsWith('/api/whoami')
        ? jsonReply(200, signedIn('bob@example.org'))
        : path.startsWith('/api/tempo/credits')
          ? jsonReply(200, { data: { getsongbpm: false } })
          : jsonReply(200, { message: 'pong, bob@example.org' });
    });
    expect(await screen.findByRole('button', { name: 'pong, bob@example.org' })).toBeTruthy();
    expect(urls.length).toBeGreaterThanOrEqual(2);
    for (const url of urls) expect(url).toContain('sudo=bob%40example.org');
  });

  it('retries whoami 10 s after a failure that is not a 401', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let calls = 0;
      renderApp('/about', (path) => {
        if (!path.startsWith('/api/whoami')) return errorReply(404, 'NotFound', 'no');
        calls += 1;
        return calls === 1 ? errorReply(503, 'Unavailable', 'down') : jsonReply(200, signedIn());
      });
      await waitFor(() => expect(calls).toBe(1));
      await vi.advanceTimersByTimeAsync(9_000);
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(1_500);
      await waitFor(() => expect(calls).toBe(2));
      await vi.advanceTimersByTimeAsync(20_000);
      expect(calls).toBe(2); // no more retries once it answered
    } finally {
      vi.useRealTimers();
    }
  });
});
