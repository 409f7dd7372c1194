import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sanitizeTooltipHtml } from '../components/ServerHtmlTooltip/sanitize.ts';
import { errorReply, jsonReply, renderApp } from '../test/render-app.tsx';
import {
  source,
  sourcesReply,
  statusApi,
  target,
  targetsReply,
  whoamiReply,
} from '../test/status-fixtures.ts';
import { queryKeys } from '../api/query-keys.ts';
import { FIRST_FILL_FAST_FOR_MS, FIRST_FILL_RELOAD_MS } from '../status/status-queries.ts';
import { INTERNAL_ERROR_TEXT } from './StatusPage.tsx';

const STILL_LOADING = 'Please wait... Still trying to load page...';

afterEach(() => {
  vi.useRealTimers();
});

describe('the signed-in status page: tables (spec §2)', () => {
  it('shows each target: a Spotify link once published, plain after a first job, else "(creating...)"', async () => {
    const { api } = statusApi({
      targets: () =>
        jsonReply(
          200,
          targetsReply([
            target({
              target_id: 'a',
              target: 'Pacebeat 150-160',
              bpms: { min: 150, max: 160 },
              public_url: 'https://open.spotify.com/playlist/abc',
              timestamp_last_job_finished: 1_700_000_000,
              timestamp_last_job_finished_str: '2026-11-23 14:05',
              stats: { tracks_added: 1234, tracks_added_7days: 56 },
            }),
            target({
              target_id: 'b',
              target: 'Pacebeat 160-170',
              timestamp_last_job_finished: 1_700_000_000,
              timestamp_last_job_finished_str: '2026-11-23 14:06',
            }),
            target({ target_id: 'c', target: 'Pacebeat 170-180', bpms: { min: 170, max: 180 } }),
          ]),
        ),
    });
    renderApp('/', api);
    const table = await screen.findByRole('table', { name: 'Target playlists' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((r) => Array.from(r.children, (c) => c.textContent))).toEqual([
      ['Name', 'BPM', 'Last update', 'Tracks added', 'In 7 days'],
      ['SpotifyPacebeat 150-160', '150-160', '2026-11-23 14:05', '1,234', '56'],
      ['Pacebeat 160-170', '160-170', '2026-11-23 14:06', 'N/A', 'N/A'],
      ['Pacebeat 170-180 (creating...)', '170-180', '-', 'N/A', 'N/A'],
    ]);
    const link = within(table).getByRole('link', { name: /^Spotify\s*Pacebeat 150-160$/ });
    expect(link.getAttribute('href')).toBe('https://open.spotify.com/playlist/abc');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link.querySelector('svg title')?.textContent).toBe('Spotify');
    // Beyond the spec: each "Tracks added" count links to the target's page (its text stays the spec's).
    const counts = within(table).getAllByRole('link', { name: /tracks added to/ });
    expect(counts.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['1,234', '/targets/a'],
      ['N/A', '/targets/b'],
      ['N/A', '/targets/c'],
    ]);
    expect(within(table).getAllByRole('link')).toHaveLength(4);
    expect(screen.getByRole('heading', { name: 'Hello, Ria!' })).toBeTruthy();
  });

  it('shows each source: name, switch, last scan, tracks seen, progress, and the library summary', async () => {
    const { api } = statusApi({
      sources: () =>
        jsonReply(
          200,
          sourcesReply([
            source(),
            source({
              kind: 'playlist',
              source_id: 'p1',
              name: 'Long runs',
              enabled: false,
              timestamp_last_job_finished: 1_700_000_000,
              timestamp_last_job_finished_str: '2026-11-22 08:00',
              stats: { known_tracks: 2345 },
              progress: { ...source().progress, state: 'idle', tracks_with_tempo: 2000 },
            }),
            source({
              kind: 'playlist',
              source_id: 'p2',
              name: 'Broken',
              progress: { ...source().progress, state: 'failed', error: 'Spotify answered 500' },
            }),
            source({
              kind: 'artist_catalogs',
              source_id: 'artist_catalogs',
              name: 'Artist catalogs',
              stats: { known_tracks: 3320 },
              progress: { ...source().progress, items_read: 212, items_total: null, tracks_with_tempo: 368 },
            }),
          ]),
        ),
    });
    renderApp('/', api);
    const table = await screen.findByRole('table', { name: 'Sources' });
    const rows = within(table).getAllByRole('row');
    expect(Array.from(rows[0]!.children, (c) => c.textContent)).toEqual([
      'Name',
      'Enabled',
      'Last scan',
      'Tracks seen',
    ]);
    const cells = (i: number) => Array.from(rows[i]!.children, (c) => c.textContent);
    expect(cells(1)).toEqual(['Liked Songs1,240 of 10,000 read', '', '-', 'N/A']);
    expect(cells(2)).toEqual(['Long runs2,000 with a known tempo', '', '2026-11-22 08:00', '2,345']);
    expect(cells(3)[0]).toBe('BrokenScan failed: Spotify answered 500');
    // Catalogs count releases, and their total is unknown until every artist's listing is read.
    expect(cells(4)[0]).toBe('Artist catalogs212 releases read so far · 368 with a known tempo');
    expect(screen.getByRole('switch', { name: 'Enabled: Liked Songs' })).toHaveProperty('checked', true);
    expect(screen.getByRole('switch', { name: 'Enabled: Long runs' })).toHaveProperty('checked', false);
    expect(screen.getByRole('progressbar', { name: 'Liked Songs: 12 % read' })).toBeTruthy();
    expect(screen.getByTestId('library-summary').textContent).toBe(
      'Your library: 1,240 songs, 900 with a known tempo (72 %), 340 still without one.',
    );
  });

  it('sends a user without a connected music service to /connect/spotify', async () => {
    const { api } = statusApi({ whoami: () => jsonReply(200, whoamiReply({ connected: false })) });
    const { router } = renderApp('/', api);
    await waitFor(() => expect(router.state.location.pathname).toBe('/connect/spotify'));
  });

  it('after Proceed (/?refresh) waits for the session re-read instead of sending a just-connected runner back to connect', async () => {
    let connected = false;
    let answer: () => void = () => undefined;
    const { api } = statusApi({
      whoami: () =>
        connected
          ? new Promise<Response>((resolve) => {
              // The re-read answers late, as on a busy server.
              answer = () => resolve(jsonReply(200, whoamiReply({ connected: true })));
            })
          : jsonReply(200, whoamiReply({ connected: false })),
    });
    const { router, queryClient } = renderApp('/about', api);
    await screen.findByRole('button', { name: 'Account: Ria Runner' }); // the session is read
    // PUT connect succeeded and the connect page asked for a re-read; the session the app holds still says
    // "not connected" while the re-read is on its way, and the runner clicks Proceed.
    connected = true;
    void queryClient.invalidateQueries({ queryKey: queryKeys.session.all });
    // Every navigation asked for (a later one may cancel an earlier one before it lands).
    const asked: string[] = [];
    const navigate = router.navigate.bind(router);
    router.navigate = ((to: Parameters<typeof navigate>[0], opts?: Parameters<typeof navigate>[1]) => {
      asked.push(typeof to === 'string' ? to : JSON.stringify(to));
      return navigate(to as never, opts);
    }) as typeof router.navigate;
    await router.navigate('/?refresh');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    answer();
    await screen.findByRole('table', { name: 'Target playlists' });
    expect(asked.filter((to) => to.includes('/connect/'))).toEqual([]);
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows a red alert per disabled service above the tables', async () => {
    const { api } = statusApi({
      whoami: () =>
        jsonReply(200, whoamiReply({ disabled: [{ service: 'spotify', reason: 'Access was revoked' }] })),
    });
    renderApp('/', api);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'Service "spotify" is in disabled state in your account. Reason: Access was revoked. You may try to reconnect to it.',
    );
    const table = await screen.findByRole('table', { name: 'Target playlists' });
    expect(alert.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('beside a disabled service’s alert, says nothing of waits that will not end by themselves', async () => {
    const until = Math.floor(Date.now() / 1000) + 6 * 3600;
    const waiting = source({ progress: { ...source().progress, state: 'waiting', resumes_at: until } });
    const { api } = statusApi({
      whoami: () =>
        jsonReply(
          200,
          whoamiReply({
            disabled: [{ service: 'spotify', reason: 'Access was revoked' }],
            waits: { until, for: 'share' },
          }),
        ),
      sources: () => jsonReply(200, sourcesReply([waiting])),
    });
    renderApp('/', api);
    await screen.findByRole('table', { name: 'Sources' });
    expect(screen.getByRole('alert').textContent).toContain('Access was revoked');
    expect(screen.queryByText(/Nothing to do on your side/)).toBeNull();
    expect(screen.queryByRole('status', { name: 'Spotify paused' })).toBeNull();
    expect(screen.queryByRole('status', { name: "Spotify's daily limit" })).toBeNull();
  });

  it('when the runner’s own share of the day is used, says so, and not that Spotify’s limit is reached', async () => {
    const until = Math.floor(Date.now() / 1000) + 6 * 3600;
    const waiting = source({ progress: { ...source().progress, state: 'waiting', resumes_at: until } });
    const { api } = statusApi({
      whoami: () => jsonReply(200, whoamiReply({ waits: { until, for: 'share' } })),
      sources: () => jsonReply(200, sourcesReply([waiting])),
    });
    renderApp('/', api);
    const paused = await screen.findByRole('status', { name: 'Spotify paused' });
    expect(paused.textContent).toContain("Your share of today's Spotify calls is used");
    await screen.findByRole('table', { name: 'Sources' });
    expect(screen.queryByText(/daily limit reached/)).toBeNull();
    expect(screen.queryByRole('status', { name: "Spotify's daily limit" })).toBeNull();
  });

  // Only the catalogs wait: neither is Spotify's limit, whether the runner's share or Pacebeat's part of
  // the day for catalogs is what is used.
  it.each([
    {
      why: 'share' as const,
      name: "Your share of Spotify's calls",
      title: "Your share of today's Spotify calls is used",
      says: "your part for reading is used today, so reading your artists' catalogs waits",
    },
    {
      why: 'spotify' as const,
      name: "Spotify's daily limit",
      title: "Reading artists' catalogs is paused",
      says: "Pacebeat keeps part of them for the runners' own libraries and playlists",
    },
  ])('when only the catalogs wait ($why), titles it "$title"', async ({ why, name, title, says }) => {
    const until = Math.floor(Date.now() / 1000) + 6 * 3600;
    const catalogs = source({
      kind: 'artist_catalogs',
      progress: { ...source().progress, state: 'waiting', resumes_at: until },
    });
    const { api } = statusApi({
      whoami: () => jsonReply(200, whoamiReply({ catalogsWaitFor: why })),
      sources: () => jsonReply(200, sourcesReply([catalogs])),
    });
    renderApp('/', api);
    const notice = await screen.findByRole('status', { name });
    expect(notice.textContent).toContain(title);
    expect(notice.textContent).toContain(says);
    expect(notice.textContent).toContain('new matches still go into your playlists');
    expect(screen.queryByText(/daily limit reached/)).toBeNull();
  });

  it('shows a card per row on a phone, so nothing scrolls sideways', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: /max-width:\s*599\.95px/.test(query),
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
    }));
    const { api } = statusApi();
    renderApp('/', api);
    const targets = await screen.findByRole('list', { name: 'Target playlists' });
    expect(within(targets).getByText('160-170')).toBeTruthy();
    expect(within(targets).getByText('In 7 days')).toBeTruthy();
    const sources = screen.getByRole('list', { name: 'Sources' });
    expect(within(sources).getByRole('switch', { name: 'Enabled: Liked Songs' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('the signed-in status page: timing (spec §4, §9)', () => {
  it('shows the still-loading indicator only after 1 s without data', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = statusApi({ targets: () => new Promise<Response>(() => {}) });
    renderApp('/', api);
    await vi.advanceTimersByTimeAsync(900);
    expect(screen.queryByText(STILL_LOADING)).toBeNull();
    await vi.advanceTimersByTimeAsync(300);
    expect(await screen.findByText(STILL_LOADING)).toBeTruthy();
  });

  it('reloads both tables every 15 s after a success', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // A runner whose playlists exist (before the first one, the targets are read every 5 s: below).
    const playlist = target({ public_url: 'https://open.spotify.com/playlist/p1' });
    const { api, calls } = statusApi({ targets: () => jsonReply(200, targetsReply([playlist])) });
    renderApp('/', api);
    await screen.findByRole('table', { name: 'Sources' });
    expect(calls).toMatchObject({ targets: 1, sources: 1 });
    await vi.advanceTimersByTimeAsync(14_000);
    expect(calls).toMatchObject({ targets: 1, sources: 1 });
    await vi.advanceTimersByTimeAsync(1_500);
    await waitFor(() => expect(calls).toMatchObject({ targets: 2, sources: 2 }));
    await vi.advanceTimersByTimeAsync(15_000);
    await waitFor(() => expect(calls).toMatchObject({ targets: 3, sources: 3 }));
  });

  it('while a first fill is under way (no playlist yet), reads the targets every 5 s, then every 15 s again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // Right after Proceed the writer has not planned yet (`first_fill` null), then it counts matches,
    // then the first playlists exist.
    let phase: 'before the first plan' | 'planned' | 'playlists made' = 'before the first plan';
    const { api, calls } = statusApi({
      targets: () =>
        jsonReply(200, {
          data: {
            targets: [
              target(
                phase === 'playlists made' ? { public_url: 'https://open.spotify.com/playlist/p1' } : {},
              ),
            ],
            first_fill: phase === 'planned' ? { matches: 0, needed: 50 } : null,
          },
        }),
    });
    renderApp('/', api);
    await screen.findByRole('table', { name: 'Sources' });
    expect(calls).toMatchObject({ targets: 1, sources: 1 });
    await vi.advanceTimersByTimeAsync(5_500);
    await waitFor(() => expect(calls).toMatchObject({ targets: 2, sources: 1 }));
    phase = 'planned';
    await vi.advanceTimersByTimeAsync(5_000);
    await waitFor(() => expect(calls.targets).toBe(3));
    phase = 'playlists made';
    await vi.advanceTimersByTimeAsync(5_000);
    await waitFor(() => expect(calls.targets).toBe(4));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls.targets).toBe(4); // back to the spec's 15 s
    await vi.advanceTimersByTimeAsync(6_000);
    await waitFor(() => expect(calls.targets).toBe(5));
  });

  it('a first fill still under way after 2 minutes is read every 15 s, as the spec says', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // A busy Spotify: the first playlists are minutes away, and 5 s reads would only add load.
    const { api, calls } = statusApi({
      targets: () =>
        jsonReply(200, { data: { targets: [target({})], first_fill: { matches: 3, needed: 50 } } }),
    });
    renderApp('/', api);
    await screen.findByRole('table', { name: 'Sources' });
    expect(calls.targets).toBe(1);
    await vi.advanceTimersByTimeAsync(FIRST_FILL_FAST_FOR_MS + 500);
    await waitFor(() => expect(calls.targets).toBe(1 + FIRST_FILL_FAST_FOR_MS / FIRST_FILL_RELOAD_MS));
    const atTwoMinutes = calls.targets;
    await vi.advanceTimersByTimeAsync(60_000);
    await waitFor(() => expect(calls.targets).toBeGreaterThanOrEqual(atTwoMinutes + 4));
    // Every 15 s (4 in a minute; 5 if the last 5 s step was already due), not every 5 s (12).
    expect(calls.targets).toBeLessThanOrEqual(atTwoMinutes + 5);
  });

  it('after a failure that is not a 401: the error flag, then a retry after 10 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    const { api, calls } = statusApi({
      targets: () => (fail ? errorReply(503, 'Unavailable', 'down') : jsonReply(200, targetsReply())),
    });
    renderApp('/', api);
    expect(await screen.findByText(INTERNAL_ERROR_TEXT)).toBeTruthy();
    expect(screen.queryByText(STILL_LOADING)).toBeNull();
    fail = false;
    await vi.advanceTimersByTimeAsync(9_000);
    expect(calls.targets).toBe(1);
    await vi.advanceTimersByTimeAsync(1_500);
    await screen.findByRole('table', { name: 'Target playlists' });
    expect(calls.targets).toBe(2);
    expect(screen.queryByText(INTERNAL_ERROR_TEXT)).toBeNull();
  });

  it('on a 401: marks the user signed out, re-reads the session, and does not retry', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let signedIn = true;
    const { api, calls } = statusApi({
      whoami: () =>
        signedIn ? jsonReply(200, whoamiReply()) : errorReply(401, 'Unauthorized', 'Not signed in.'),
      targets: () => {
        signedIn = false;
        return errorReply(401, 'Unauthorized', 'Not signed in.');
      },
    });
    renderApp('/', api);
    expect(await screen.findByRole('link', { name: 'Log in or register' })).toBeTruthy();
    await waitFor(() => expect(calls.whoami).toBe(2));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.targets).toBe(1);
    expect(calls.whoami).toBe(2);
  });

  it('stops its timers when the page is left', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api, calls } = statusApi();
    const { router } = renderApp('/', api);
    await screen.findByRole('table', { name: 'Sources' });
    await router.navigate('/about');
    await screen.findByRole('heading', { name: 'About Pacebeat', level: 1 });
    expect(screen.queryByRole('table')).toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toMatchObject({ targets: 1, sources: 1 });
  });
});

describe('the Enabled switch (spec §4, §8)', () => {
  function deferred() {
    let resolve!: (r: Response) => void;
    const promise = new Promise<Response>((r) => (resolve = r));
    return { promise, resolve };
  }

  it('flips at once, is disabled with a spinner while saving, and keeps the saved value', async () => {
    const pending = deferred();
    const bodies: unknown[] = [];
    let saved = true; // what the server holds
    const { api, calls } = statusApi({
      sources: () => jsonReply(200, sourcesReply([source({ enabled: saved })])),
      sourceChange: (body) => {
        bodies.push(body);
        return pending.promise;
      },
    });
    renderApp('/', api);
    const toggle = await screen.findByRole('switch', { name: 'Enabled: Liked Songs' });
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle).toHaveProperty('checked', false));
    expect(toggle).toHaveProperty('disabled', true);
    expect(screen.getByRole('progressbar', { name: 'Saving Liked Songs' })).toBeTruthy();
    expect(bodies).toEqual([{ kind: 'liked_songs', source_id: 'liked', enabled: false }]);

    saved = false;
    pending.resolve(jsonReply(200, { data: { source: source({ enabled: false }) } }));
    await waitFor(() => expect(toggle).toHaveProperty('disabled', false));
    await waitFor(() => expect(calls.sources).toBe(2)); // re-read once saved
    expect(toggle).toHaveProperty('checked', false);
    expect(screen.queryByRole('progressbar', { name: 'Saving Liked Songs' })).toBeNull();
  });

  it('flips back when the call fails, with only a log line', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const pending = deferred();
    const { api } = statusApi({ sourceChange: () => pending.promise });
    renderApp('/', api);
    const toggle = await screen.findByRole('switch', { name: 'Enabled: Liked Songs' });
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle).toHaveProperty('checked', false));
    pending.resolve(errorReply(500, 'InternalError', 'Internal Server Error'));
    await waitFor(() => expect(toggle).toHaveProperty('checked', true));
    expect(toggle).toHaveProperty('disabled', false);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(logged).toHaveBeenCalledWith('POST /api/spotify/source_change failed:', expect.anything());
  });
});

describe('sudo mode (issue 23: the switches stayed live and flipped back after the 403)', () => {
  it('disables every Enabled switch and says why, and never calls source_change', async () => {
    const { api, calls } = statusApi({
      whoami: () => jsonReply(200, whoamiReply({ sudo: 'ria@example.com' })),
    });
    renderApp('/?sudo=ria@example.com', api);
    const toggle = await screen.findByRole('switch', { name: 'Enabled: Liked Songs' });
    expect(toggle).toHaveProperty('disabled', true);
    expect(screen.getByTestId('read-only-reason').textContent).toBe(
      'Viewing only: changes are disabled in sudo mode.',
    );
    fireEvent.click(toggle);
    expect(toggle).toHaveProperty('checked', true);
    expect(calls.sourceChange).toBe(0);
  });
});

describe('the source tooltip renders the server HTML sanitised', () => {
  const payload =
    '<b>Your playlist</b> <img src="x" onerror="window.__pwned=1"><script>window.__pwned=2</script>' +
    '<a href="javascript:alert(1)">bad</a> <a href="https://open.spotify.com/x">ok</a>';

  it('drops scripts, event handlers and javascript: links, and keeps the formatting', () => {
    const clean = sanitizeTooltipHtml(payload);
    expect(clean).toContain('<b>Your playlist</b>');
    expect(clean).not.toMatch(/script|onerror|<img|javascript:/i);
    expect(clean).toContain('href="https://open.spotify.com/x"');
    expect(clean).toContain('rel="noopener noreferrer"');
  });

  it('shows the cleaned HTML in the tooltip of the info icon', async () => {
    const { api } = statusApi({
      sources: () => jsonReply(200, sourcesReply([source({ front_tooltip: payload })])),
    });
    renderApp('/', api);
    const info = await screen.findByRole('button', { name: 'About Liked Songs' });
    fireEvent.mouseOver(info);
    fireEvent.focus(info);
    const tip = await screen.findByTestId('tooltip-html');
    expect(tip.querySelector('b')?.textContent).toBe('Your playlist');
    expect(tip.querySelector('script, img, [onerror]')).toBeNull();
    expect(tip.innerHTML).not.toContain('javascript:');
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });
});
