import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { errorReply, jsonReply, renderApp } from '../test/render-app.tsx';

describe('PingPage', () => {
  it('labels the button with the ping message', async () => {
    renderApp('/ping', (path) =>
      path === '/api/ping'
        ? jsonReply(200, { message: 'Hello, runner!' })
        : errorReply(401, 'Unauthorized', 'No'),
    );
    expect(await screen.findByRole('button', { name: 'Hello, runner!' })).toBeTruthy();
  });

  it('only logs a failed ping', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp('/ping', () => errorReply(401, 'Unauthorized', 'Sign in first.'));
    await waitFor(() => expect(log).toHaveBeenCalledWith('GET /api/ping failed:', expect.anything()));
    expect(screen.getByRole('main').textContent).not.toContain('Sign in first.');
  });
});
