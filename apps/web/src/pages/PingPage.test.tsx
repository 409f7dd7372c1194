import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { errorReply, jsonReply, renderApp, visitorApi } from '../test/render-app.tsx';
import { whoamiReply } from '../test/status-fixtures.ts';

const signedIn = (ping: () => Response) => (path: string) =>
  path.startsWith('/api/whoami')
    ? jsonReply(200, whoamiReply())
    : path === '/api/ping'
      ? ping()
      : errorReply(404, 'NotFound', 'no');

describe('PingPage', () => {
  it('labels the button with the ping message', async () => {
    renderApp(
      '/ping',
      signedIn(() => jsonReply(200, { message: 'Hello, runner!' })),
    );
    expect(await screen.findByRole('button', { name: 'Hello, runner!' })).toBeTruthy();
  });

  it('only logs a failed ping', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp(
      '/ping',
      signedIn(() => errorReply(500, 'InternalError', 'Ping broke.')),
    );
    await waitFor(() => expect(log).toHaveBeenCalledWith('GET /api/ping failed:', expect.anything()));
    expect(screen.getByRole('main').textContent).not.toContain('Ping broke.');
  });

  it('tells a visitor to log in instead of showing a button without a label, and pings nothing', async () => {
    const { fetchMock } = renderApp('/ping', visitorApi);
    expect(await screen.findByText('Ping answers signed-in users only: log in first.')).toBeTruthy();
    const main = within(screen.getByRole('main'));
    expect(main.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('button', { name: '…' })).toBeNull();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContain('/api/ping');
  });
});
