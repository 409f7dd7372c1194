import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../api/query-keys.ts';
import { errorReply, jsonReply, renderApp, visitorApi, type FakeApi } from '../../test/render-app.tsx';

/** A visitor, and the given answer to GET /api/tempo/credits. */
const withCredits =
  (credits: () => Response): FakeApi =>
  (path, init) =>
    path.startsWith('/api/tempo/credits') ? credits() : visitorApi(path, init);

describe('AppFooter', () => {
  it.each(['/', '/about', '/ping'])('shows the version and the build hash on %s', async (path) => {
    vi.stubEnv('VITE_BUILD_HASH', 'abc1234');
    renderApp(path, visitorApi);
    const footer = await screen.findByRole('contentinfo');
    expect(footer.textContent).toContain('v0.6-3 · build abc1234');
  });

  it('says "unknown" when the build has no hash', async () => {
    vi.stubEnv('VITE_BUILD_HASH', '');
    renderApp('/about', visitorApi);
    expect((await screen.findByRole('contentinfo')).textContent).toContain('v0.6-3 · build unknown');
  });
});

describe('AppFooter: GetSongBPM credit', () => {
  it('links to getsongbpm.com when the server uses GetSongBPM, read once per app load', async () => {
    const { fetchMock, router } = renderApp(
      '/',
      withCredits(() => jsonReply(200, { data: { getsongbpm: true } })),
    );
    const footer = await screen.findByRole('contentinfo');
    const link = await within(footer).findByRole('link', { name: 'Tempo data from GetSongBPM' });
    expect(link.getAttribute('href')).toBe('https://getsongbpm.com');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener');
    expect(within(footer).getByLabelText('Attributions').contains(link)).toBe(true);

    await router.navigate('/about');
    await screen.findByRole('heading', { name: 'About Pacebeat' });
    expect(screen.getByRole('link', { name: 'Tempo data from GetSongBPM' })).toBeTruthy();
    const creditCalls = fetchMock.mock.calls.filter(([url]) => String(url) === '/api/tempo/credits');
    expect(creditCalls).toHaveLength(1);
  });

  it('shows no link and no attributions when the server does not use GetSongBPM', async () => {
    const { queryClient } = renderApp(
      '/',
      withCredits(() => jsonReply(200, { data: { getsongbpm: false } })),
    );
    await waitFor(() => expect(queryClient.getQueryState(queryKeys.tempoCredits)?.status).toBe('success'));
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).queryByRole('link', { name: /GetSongBPM/ })).toBeNull();
    expect(within(footer).queryByLabelText('Attributions')).toBeNull();
  });

  it('keeps the page when the credits call fails: no link, only a log line', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { queryClient } = renderApp(
      '/',
      withCredits(() => errorReply(500, 'InternalError', 'Internal Server Error')),
    );
    await waitFor(() => expect(queryClient.getQueryState(queryKeys.tempoCredits)?.status).toBe('error'));
    expect(await screen.findByRole('link', { name: 'Log in or register' })).toBeTruthy();
    expect(screen.getByRole('contentinfo').textContent).toContain('About Pacebeat');
    expect(screen.queryByRole('link', { name: /GetSongBPM/ })).toBeNull();
    await waitFor(() =>
      expect(logged).toHaveBeenCalledWith('GET /api/tempo/credits failed:', expect.anything()),
    );
  });
});
