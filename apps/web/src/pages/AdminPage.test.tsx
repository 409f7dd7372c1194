import type { AdminSignupReply } from '@pacebeat/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PAGE } from '../admin/admin-texts.ts';
import { jsonReply, renderApp, type FakeApi, preloadPage } from '../test/render-app.tsx';
import { whoamiReply } from '../test/status-fixtures.ts';

type Data = AdminSignupReply['data'];
const DATA: Data = {
  mode: 'invite',
  source: 'default',
  default_mode: 'invite',
  demo: false,
  accounts: 4,
  admins: 1,
  connected_runners: 5,
  runner_limit: 5,
  invitations: [
    {
      id: '3a7d9c1e-2b4f-4e6a-8c0d-5f1e2a3b4c5d',
      email: 'ivy@example.org',
      created_at: '2026-11-20T10:00:00.000Z',
      expires_at: '2099-11-27T10:00:00.000Z',
      status: 'open',
      used_by: null,
    },
    {
      id: '6f1c2a4e-8b3d-4f5a-9c7e-1d2b3a4c5e6f',
      email: null,
      created_at: '2026-11-19T10:00:00.000Z',
      expires_at: '2026-11-26T10:00:00.000Z',
      status: 'used',
      used_by: '<b>sam</b>@example.org',
    },
  ],
};

function api(o: { admin?: boolean; data?: Data } = {}) {
  const calls: Array<{ path: string; method: string; body: unknown }> = [];
  let data = o.data ?? DATA;
  const fake: FakeApi = (path, init) => {
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null;
    calls.push({ path, method, body });
    if (path.startsWith('/api/whoami')) {
      const who = whoamiReply({ sudo: null });
      who.data.user.is_admin = o.admin ?? true;
      return jsonReply(200, who);
    }
    if (path.startsWith('/api/tempo/credits')) return jsonReply(200, { data: { getsongbpm: false } });
    if (path.startsWith('/api/admin/signup') && method === 'GET') return jsonReply(200, { data });
    if (path.startsWith('/api/admin/signup') && method === 'PUT') {
      data = { ...data, mode: body!.mode as Data['mode'], source: 'database' };
      return jsonReply(200, { data });
    }
    if (path.startsWith('/api/admin/invitations') && method === 'POST') {
      return jsonReply(200, {
        data: {
          invitation: { ...DATA.invitations[0]!, email: body!.email ?? null },
          link: 'http://127.0.0.1:8080/login?invite=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG',
          mailed: false,
        },
      });
    }
    if (path.startsWith('/api/admin/invitations/') && method === 'DELETE')
      return jsonReply(200, { data: { ok: true } });
    return jsonReply(404, {
      error: { code: 'NotFound', message: 'no' },
      error_name: 'NotFound',
      requestId: 'r',
    });
  };
  return { fake, calls };
}

beforeAll(() => preloadPage('/admin'), 120_000);

describe('AdminPage (/admin)', () => {
  it('shows the counts against development mode’s 5, the mode, and the invitations, escaped', async () => {
    renderApp('/admin', api().fake);
    await screen.findByRole('heading', { name: ADMIN_PAGE.title });
    expect(await screen.findByText(ADMIN_PAGE.connected(5, 5))).toBeTruthy();
    expect(screen.getByText(ADMIN_PAGE.accounts(4, 1))).toBeTruthy();
    expect(screen.getByText(ADMIN_PAGE.full)).toBeTruthy();
    expect((screen.getByRole('radio', { name: /^By invitation/ }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('button', { name: ADMIN_PAGE.revokeLabel('ivy@example.org') })).toBeTruthy();
    // A name from the database is text, never markup.
    expect(screen.getByText(ADMIN_PAGE.usedBy('<b>sam</b>@example.org'))).toBeTruthy();
    expect(document.querySelector('b')).toBeNull();
    // A used invitation says who used it, once (not "used, used by …").
    expect(screen.queryByText(new RegExp(`^${ADMIN_PAGE.status.used},`))).toBeNull();
  });

  it('asks to add an invited runner in Spotify’s dashboard with a real Spotify only', async () => {
    renderApp('/admin', api().fake);
    expect(await screen.findByText(new RegExp(ADMIN_PAGE.inviteSpotifyNote))).toBeTruthy();
  });

  it('says nothing of Spotify’s dashboard in demo mode', async () => {
    renderApp('/admin', api({ data: { ...DATA, demo: true } }).fake);
    expect(await screen.findByText(ADMIN_PAGE.inviteBody)).toBeTruthy();
    expect(screen.queryByText(new RegExp(ADMIN_PAGE.inviteSpotifyNote))).toBeNull();
  });

  it('saves a mode, makes a link for an address, and revokes an invitation', async () => {
    const { fake, calls } = api();
    renderApp('/admin', fake);
    fireEvent.click(await screen.findByRole('radio', { name: /^Closed/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ mode: 'closed' });
    expect(await screen.findByText(ADMIN_PAGE.closedNote)).toBeTruthy();

    fireEvent.change(screen.getByLabelText(ADMIN_PAGE.emailLabel), { target: { value: 'new@example.org' } });
    fireEvent.click(screen.getByRole('button', { name: ADMIN_PAGE.makeLink }));
    expect(await screen.findByText(ADMIN_PAGE.newLink)).toBeTruthy();
    expect(screen.getByText(/login\?invite=abcdefghijklmnopqrstuvwxyz/)).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ email: 'new@example.org' });

    fireEvent.click(screen.getByRole('button', { name: ADMIN_PAGE.revokeLabel('ivy@example.org') }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.method === 'DELETE')!.path).toBe(
      '/api/admin/invitations/3a7d9c1e-2b4f-4e6a-8c0d-5f1e2a3b4c5d',
    );
  });

  it('says when SIGNUP_MODE wins, and the radios cannot change it', async () => {
    renderApp('/admin', api({ data: { ...DATA, mode: 'open', source: 'env' } }).fake);
    expect(await screen.findByText(ADMIN_PAGE.fromEnv('Open'))).toBeTruthy();
    expect((screen.getByRole('radio', { name: /^Closed/ }) as HTMLInputElement).disabled).toBe(true);
  });

  it('is for the admin only', async () => {
    const { fake, calls } = api({ admin: false });
    renderApp('/admin', fake);
    expect(await screen.findByText(ADMIN_PAGE.notAdmin)).toBeTruthy();
    expect(calls.some((c) => c.path.startsWith('/api/admin'))).toBe(false);
  });
});
