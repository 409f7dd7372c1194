import { SETUP_TEXTS, type SpotifyAppSetupReply } from '@pacebeat/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SETUP_PAGE } from '../setup/setup-texts.ts';
import { errorReply, jsonReply, renderApp, type FakeApi, preloadPage } from '../test/render-app.tsx';
import { whoamiReply } from '../test/status-fixtures.ts';

type Data = SpotifyAppSetupReply['data'];
const DEMO: Data = {
  source: 'demo',
  client_id: null,
  saved_client_id: null,
  accounts_url: 'http://127.0.0.1:9/spotify/accounts',
  redirect_uris: [
    { uri: 'http://localhost:3000/connect/spotify', accepted: true, problem: null },
    {
      uri: 'http://localhost/connect/spotify',
      accepted: false,
      problem: 'Spotify does not accept localhost addresses',
    },
  ],
  connected_runners: 2,
};

function api(o: { admin?: boolean; sudo?: string | null; data?: Data; demo?: boolean } = {}) {
  const calls: Array<{ path: string; method: string; body: unknown }> = [];
  let data = o.data ?? DEMO;
  const fake: FakeApi = (path, init) => {
    const method = init?.method ?? 'GET';
    calls.push({ path, method, body: init?.body ? JSON.parse(String(init.body)) : null });
    if (path.startsWith('/api/whoami')) {
      const who = whoamiReply({ sudo: o.sudo ?? null });
      who.data.user.is_admin = o.admin ?? true;
      who.data.services.spotify.demo = o.demo ?? data.source === 'demo';
      return jsonReply(200, who);
    }
    if (path.startsWith('/api/tempo/credits')) return jsonReply(200, { data: { getsongbpm: false } });
    if (path.startsWith('/api/admin/spotify_app') && method === 'GET') return jsonReply(200, { data });
    if (path.startsWith('/api/admin/spotify_app') && method === 'PUT') {
      const body = JSON.parse(String(init!.body)) as { client_id: string; confirm?: boolean };
      if (!body.confirm) return errorReply(400, 'SetupNotConfirmed', SETUP_TEXTS.confirmLeaveDemo);
      data = {
        ...data,
        source: 'database',
        client_id: body.client_id,
        saved_client_id: body.client_id,
        connected_runners: 0,
      };
      return jsonReply(200, { data: { ...data, demo_connections_ended: 2 } });
    }
    return jsonReply(200, { data: { targets: [], sources: [] } });
  };
  return { fake, calls };
}

afterEach(() => vi.restoreAllMocks());

beforeAll(() => preloadPage('/setup/spotify'), 120_000);

describe('the setup page', () => {
  it('walks through the dashboard steps, with the redirect URI to copy and the development-mode rules', async () => {
    const { fake } = api();
    renderApp('/setup/spotify', fake);
    expect(await screen.findByRole('heading', { name: SETUP_PAGE.title })).toBeTruthy();
    expect(await screen.findByText(SETUP_PAGE.demo)).toBeTruthy();
    const step2 = screen.getByRole('region', { name: SETUP_PAGE.step2 });
    expect(within(step2).getByText('http://localhost:3000/connect/spotify')).toBeTruthy();
    expect(within(step2).getByText(/Spotify does not accept localhost addresses/)).toBeTruthy();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(
      within(step2).getByRole('button', { name: 'Copy http://localhost:3000/connect/spotify' }),
    );
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('http://localhost:3000/connect/spotify'));
    expect(await within(step2).findByText(SETUP_PAGE.copied)).toBeTruthy();
    for (const rule of SETUP_PAGE.rules) expect(screen.getByText(rule)).toBeTruthy();
    // No check before a client id is saved.
    expect(screen.getByText(SETUP_PAGE.checkNeedsClientId)).toBeTruthy();
  });

  it('says what a bad client id is before sending it', async () => {
    const { fake, calls } = api();
    renderApp('/setup/spotify', fake);
    const field = await screen.findByLabelText(SETUP_PAGE.clientIdLabel);
    fireEvent.change(field, { target: { value: 'not a client id' } });
    fireEvent.click(screen.getByRole('button', { name: SETUP_PAGE.leaveDemo }));
    expect(await screen.findByText(SETUP_TEXTS.badClientId)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });

  it('leaving demo mode is confirmed first, saying what happens to demo data; then the banner follows', async () => {
    const { fake, calls } = api();
    renderApp('/setup/spotify', fake);
    expect(await screen.findByRole('status', { name: 'Demo mode' })).toBeTruthy();
    fireEvent.change(await screen.findByLabelText(SETUP_PAGE.clientIdLabel), {
      target: { value: '0123456789abcdef0123456789abcdef' },
    });
    fireEvent.click(screen.getByRole('button', { name: SETUP_PAGE.leaveDemo }));
    const dialog = await screen.findByRole('dialog', { name: SETUP_PAGE.confirmTitle });
    expect(dialog.textContent).toContain(SETUP_PAGE.confirmBody(2));
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Leave demo mode' }));
    expect(await screen.findByText(SETUP_PAGE.saved(2), { exact: false })).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
      { client_id: '0123456789abcdef0123456789abcdef', confirm: true },
    ]);
    // whoami is read again: no longer demo mode, so the banner goes.
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Demo mode' })).toBeNull());
  });

  it('with SPOTIFY_CLIENT_ID set, says it wins and offers no field to change', async () => {
    const { fake } = api({
      data: { ...DEMO, source: 'env', client_id: 'envClient12345', connected_runners: 0 },
    });
    renderApp('/setup/spotify', fake);
    expect(await screen.findByText(SETUP_PAGE.env('envClient12345'))).toBeTruthy();
    expect((screen.getByLabelText(SETUP_PAGE.clientIdLabel) as HTMLInputElement).disabled).toBe(true);
  });

  it('a runner who is no admin, or an admin in sudo mode, sees no setup and makes no call for it', async () => {
    for (const o of [{ admin: false }, { admin: true, sudo: 'ria@example.com' }]) {
      const { fake, calls } = api(o);
      const view = renderApp(`/setup/spotify${o.sudo ? `?sudo=${o.sudo}` : ''}`, fake);
      expect(await screen.findByText(/This page is for the admin of this Pacebeat/)).toBeTruthy();
      expect(calls.some((c) => c.path.startsWith('/api/admin/'))).toBe(false);
      expect(screen.queryByRole('link', { name: SETUP_PAGE.bannerLink })).toBeNull();
      view.unmount();
    }
  });

  it('the demo banner links the admin to it', async () => {
    const { fake } = api();
    renderApp('/about', fake);
    const banner = await screen.findByRole('status', { name: 'Demo mode' });
    expect(within(banner).getByRole('link', { name: SETUP_PAGE.bannerLink }).getAttribute('href')).toBe(
      '/setup/spotify',
    );
  });

  it('server refusals of the id show under the field', async () => {
    const { fake } = api({
      data: {
        ...DEMO,
        source: 'database',
        client_id: 'oldClient12345',
        saved_client_id: 'oldClient12345',
        connected_runners: 0,
      },
    });
    const refuse: FakeApi = (path, init) =>
      path.startsWith('/api/admin/spotify_app') && init?.method === 'PUT'
        ? jsonReply(400, {
            error: {
              code: 'ValidationError',
              message: 'x',
              fields: [{ field: 'client_id', message: 'Refused here.' }],
            },
            error_name: 'ValidationError',
            requestId: 'r',
          })
        : fake(path, init);
    renderApp('/setup/spotify', refuse);
    const field = await screen.findByLabelText(SETUP_PAGE.clientIdLabel);
    fireEvent.change(field, { target: { value: 'newClient12345' } });
    fireEvent.click(screen.getByRole('button', { name: SETUP_PAGE.save }));
    expect(await screen.findByText('Refused here.')).toBeTruthy();
  });
});
