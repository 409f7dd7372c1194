import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { errorReply, jsonReply, renderApp } from '../test/render-app.tsx';
import { LOGIN_TEXTS } from './login-texts.ts';

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
});
