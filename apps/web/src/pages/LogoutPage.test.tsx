import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { errorReply, jsonReply, renderApp, preloadPage } from '../test/render-app.tsx';
import { LOGIN_TEXTS } from './login-texts.ts';

beforeAll(() => preloadPage('/logout'), 120_000);

describe('LogoutPage', () => {
  it('ends the session, marks the user signed out and goes to /', async () => {
    const { router, fetchMock } = renderApp('/logout', (path) =>
      path === '/api/logout' ? jsonReply(200, { data: { ok: true } }) : errorReply(401, 'Unauthorized', 'No'),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/logout')).toBe(true);
    expect(await screen.findByRole('link', { name: 'Log in or register' })).toBeTruthy();
  });

  it('shows the still-working notice while the call hangs, and the error view when it fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let answer: (r: Response) => void = () => undefined;
    renderApp('/logout', (path) =>
      path === '/api/logout'
        ? new Promise<Response>((resolve) => (answer = resolve))
        : errorReply(401, 'Unauthorized', 'No'),
    );
    expect(await screen.findByText(LOGIN_TEXTS.stillLoggingOut, {}, { timeout: 3000 })).toBeTruthy();
    answer(errorReply(503, 'Unavailable', 'down'));
    expect(await screen.findByText(LOGIN_TEXTS.error)).toBeTruthy();
  });

  it('retries a failed logout after 10 s and then goes to /', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      let calls = 0;
      const { router } = renderApp('/logout', (path) => {
        if (path !== '/api/logout') return errorReply(401, 'Unauthorized', 'No');
        calls += 1;
        return calls === 1 ? errorReply(503, 'Unavailable', 'down') : jsonReply(200, { data: { ok: true } });
      });
      expect(await screen.findByText(LOGIN_TEXTS.error)).toBeTruthy();
      await vi.advanceTimersByTimeAsync(9_000);
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(1_500);
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
      expect(calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
