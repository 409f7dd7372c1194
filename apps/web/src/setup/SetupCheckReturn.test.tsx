import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorReply, jsonReply, renderApp, type FakeApi } from '../test/render-app.tsx';
import { whoamiReply } from '../test/status-fixtures.ts';
import { CHECK_STATE_PREFIX, listenForResults, type CheckResult } from './check-window.ts';
import { SETUP_PAGE } from './setup-texts.ts';

const STATE = `${CHECK_STATE_PREFIX}abc123`;
const VERIFIER = 'v'.repeat(64);
const REDIRECT = 'http://localhost:3000/connect/spotify';

function api(reply: Response) {
  const calls: Array<{ path: string; method: string; body: unknown }> = [];
  const fake: FakeApi = (path, init) => {
    const method = init?.method ?? 'GET';
    calls.push({ path, method, body: init?.body ? JSON.parse(String(init.body)) : null });
    if (path.startsWith('/api/whoami')) {
      const who = whoamiReply({ connected: false });
      who.data.user.is_admin = true;
      return jsonReply(200, who);
    }
    if (path.startsWith('/api/tempo/credits')) return jsonReply(200, { data: { getsongbpm: false } });
    if (path === '/api/admin/spotify_app/check_account') return reply;
    return errorReply(404, 'NotFound', 'Not found');
  };
  return { fake, calls };
}

const pending = () =>
  localStorage.setItem(
    'pacebeat.setup.check',
    JSON.stringify({ state: STATE, verifier: VERIFIER, redirect_uri: REDIRECT }),
  );

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('the connect page in the setup check’s window', () => {
  it('hands the code to the check (never to the runner’s connect), shows the outcome and tells the setup page', async () => {
    pending();
    const outcome: CheckResult = {
      ok: false,
      problem: 'not_registered',
      explanation: 'Not on the user list: add it under User Management.',
      spotify_says: 'User not registered in the Developer Dashboard',
      account: null,
    };
    const heard: CheckResult[] = [];
    const stop = listenForResults((r) => heard.push(r));
    const { fake, calls } = api(jsonReply(200, { data: outcome }));
    const { router } = renderApp(`/connect/spotify?code=the-code&state=${STATE}`, fake);
    expect(await screen.findByText(outcome.explanation)).toBeTruthy();
    expect(screen.getByText('Spotify says: “User not registered in the Developer Dashboard”')).toBeTruthy();
    expect(calls.filter((c) => c.method !== 'GET').map((c) => [c.path, c.body])).toEqual([
      [
        '/api/admin/spotify_app/check_account',
        { code: 'the-code', code_verifier: VERIFIER, redirect_uri: REDIRECT },
      ],
    ]);
    await waitFor(() => expect(heard).toEqual([outcome]));
    stop();
    expect(router.state.location.search).toBe(''); // code and state leave the URL
    expect(localStorage.getItem('pacebeat.setup.check')).toBeNull(); // the verifier is used once
  });

  it('a cancel on Spotify’s page says so without asking the server', async () => {
    pending();
    const { fake, calls } = api(errorReply(500, 'InternalError', 'no'));
    renderApp(`/connect/spotify?error=access_denied&state=${STATE}`, fake);
    expect(await screen.findByText(SETUP_PAGE.denied)).toBeTruthy();
    expect(calls.some((c) => c.method !== 'GET')).toBe(false);
  });

  it('a check this browser did not start (or already answered) is not taken in', async () => {
    const { fake, calls } = api(errorReply(500, 'InternalError', 'no'));
    renderApp(`/connect/spotify?code=the-code&state=${STATE}`, fake);
    expect(await screen.findByText(SETUP_PAGE.checkWindowLost)).toBeTruthy();
    expect(calls.some((c) => c.method !== 'GET')).toBe(false);
  });
});
