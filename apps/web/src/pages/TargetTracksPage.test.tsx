import type { TargetTracksReply, TrackRow } from '@pacebeat/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { jsonReply, renderApp, type FakeApi, preloadPage } from '../test/render-app.tsx';
import { whoamiReply } from '../test/status-fixtures.ts';

const track = (over: Partial<TrackRow> = {}): TrackRow => ({
  track_id: '4uLU6hMCjMI75M1A2tKUQC',
  recording_key: 'isrc:USUM71703861',
  title: '<img src=x onerror=alert(1)> Run',
  artists: [{ id: '0OdUWJ0sBjDrqHygGUXeCF', name: '<b>Bold</b> & Co' }],
  bpm: 86,
  source: 'reccobeats',
  confidence: 0.85,
  fold: 'double',
  resolver_bpm: 86,
  corrected_bpm: null,
  meter: null,
  corrected_meter: null,
  added_at: 1_700_000_000,
  reason: null,
  excluded: null,
  ...over,
});

const reply = (list: string, tracks: TrackRow[]): TargetTracksReply => ({
  data: {
    target: {
      target_id: 't1',
      target: 'Pacebeat 170–180 BPM',
      bpms: { min: 170, max: 180 },
      public_url: null,
    },
    list: list as TargetTracksReply['data']['list'],
    tracks,
    total: tracks.length,
    next_offset: null,
  },
});

function api(
  o: { sudo?: string; demo?: boolean; tracks?: (list: string, offset: number) => TargetTracksReply } = {},
) {
  const calls: Array<{ path: string; method: string; body: unknown }> = [];
  const fake: FakeApi = (path, init) => {
    calls.push({
      path,
      method: init?.method ?? 'GET',
      body: init?.body ? JSON.parse(String(init.body)) : null,
    });
    if (path.startsWith('/api/whoami')) {
      const who = whoamiReply({ sudo: o.sudo ?? null });
      who.data.services.spotify.demo = o.demo ?? false;
      return jsonReply(200, who);
    }
    if (path.startsWith('/api/tempo/credits')) return jsonReply(200, { data: { getsongbpm: false } });
    if (path.startsWith('/api/spotify/targets/t1/tracks')) {
      const list = new URL(path, 'http://x').searchParams.get('list')!;
      const offset = Number(new URL(path, 'http://x').searchParams.get('offset'));
      if (o.tracks) return jsonReply(200, o.tracks(list, offset));
      return jsonReply(
        200,
        reply(
          list,
          list === 'skipped'
            ? [track({ bpm: null, fold: null, source: null, reason: 'unknown_tempo' })]
            : [track()],
        ),
      );
    }
    if (path.startsWith('/api/spotify/tempo_corrections/'))
      return init?.method === 'DELETE'
        ? jsonReply(200, { data: { undone: true } })
        : jsonReply(200, {
            data: { recording_key: 'isrc:USUM71703861', bpm: 120, removals_requested: 0 },
          });
    if (path.startsWith('/api/spotify/meter_corrections/'))
      return init?.method === 'DELETE'
        ? jsonReply(200, { data: { undone: true } })
        : jsonReply(200, {
            data: { recording_key: 'isrc:USUM71703861', meter: '4/4', removals_requested: 0 },
          });
    if (path.startsWith('/api/spotify/exclusions/'))
      return init?.method === 'DELETE'
        ? jsonReply(200, { data: { undone: true } })
        : jsonReply(200, {
            data: {
              exclusion: {
                kind: 'track',
                key: 'isrc:USUM71703861',
                label: 'Run',
                detail: 'Bold',
                created_at: 1,
              },
              removals_requested: 0,
            },
          });
    return jsonReply(404, {
      error: { code: 'NotFound', message: 'Not found' },
      error_name: 'NotFound',
      requestId: 'r',
    });
  };
  return { fake, calls };
}

afterEach(() => vi.restoreAllMocks());

beforeAll(() => preloadPage('/targets/t1'), 120_000);

describe('a target’s page', () => {
  it('shows names from Spotify as text, linked to Spotify with its logo, and the tempo as a runner reads it', async () => {
    const { fake } = api();
    const { container } = renderApp('/targets/t1', fake);
    const row = await screen.findByTestId('track-row');
    expect(
      within(row).getByRole('link', { name: '<img src=x onerror=alert(1)> Run' }).getAttribute('href'),
    ).toBe('https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC');
    expect(within(row).getByRole('link', { name: '<b>Bold</b> & Co' }).getAttribute('href')).toBe(
      'https://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF',
    );
    expect(container.querySelector('img, b')).toBeNull();
    expect(within(row).getByTitle('Spotify')).toBeTruthy();
    expect(within(row).getByTestId('track-tempo').textContent).toBe(
      '86 BPM, run at double time (172) from ReccoBeats (85 % sure)',
    );
  });

  it('isolates every name from Spotify, so a right-to-left override in it cannot turn the text around it', async () => {
    const rlo = '\u202Eevil\u202C';
    const rows = (list: string) => {
      const r = reply(list, [track({ title: `Run ${rlo}`, artists: [{ id: 'a1', name: `Band ${rlo}` }] })]);
      r.data.target.target = `Pace ${rlo}`;
      return r;
    };
    const { fake } = api({ tracks: rows });
    const { container } = renderApp('/targets/t1', fake);
    const row = await screen.findByTestId('track-row');
    // Each name is the whole text of a <bdi>: the heading, the title and the artist.
    const isolated = [...container.querySelectorAll('bdi')].map((b) => b.textContent);
    expect(isolated).toEqual(expect.arrayContaining([`Pace ${rlo}`, `Run ${rlo}`, `Band ${rlo}`]));
    const textNodesWithOverride = (root: Element) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      const out: Node[] = [];
      for (let n = walker.nextNode(); n; n = walker.nextNode())
        if (n.textContent!.includes('\u202E')) out.push(n);
      return out;
    };
    for (const n of textNodesWithOverride(container)) expect(n.parentElement!.closest('bdi')).not.toBeNull();
    // In the dialogs too.
    fireEvent.click(within(row).getByRole('button', { name: 'Fix tempo' }));
    const dialog = await screen.findByRole('dialog');
    const inDialog = textNodesWithOverride(dialog);
    expect(inDialog.length).toBeGreaterThan(0);
    for (const n of inDialog) expect(n.parentElement!.closest('bdi')).not.toBeNull();
  });

  it('switches to the skipped list on the server, with the reason', async () => {
    const { fake, calls } = api();
    renderApp('/targets/t1', fake);
    await screen.findByTestId('track-row');
    fireEvent.click(screen.getByRole('tab', { name: 'Skipped' }));
    expect(await screen.findByText('No source knows its tempo')).toBeTruthy();
    expect(calls.some((c) => c.path.includes('list=skipped&offset=0&limit=25'))).toBe(true);
  });

  it('says in words why a song in 3/4 or 7/8 is skipped', async () => {
    const skipped = [
      track({ title: 'Waltz', reason: 'meter_3_4', meter: '3/4' }),
      track({ track_id: '5uLU6hMCjMI75M1A2tKUQC', title: 'Odd', reason: 'meter_7_8', meter: '7/8' }),
    ];
    const { fake } = api({ tracks: (list) => reply(list, list === 'skipped' ? skipped : [track()]) });
    renderApp('/targets/t1?list=skipped', fake);
    const rows = await screen.findAllByTestId('track-row');
    expect(within(rows[0]!).getByText('in 3/4: the beat falls on alternating feet')).toBeTruthy();
    expect(within(rows[1]!).getByText('in 7/8: the bar is uneven under your stride')).toBeTruthy();
  });

  it('“This one is in 4/4” saves the runner’s meter beside the tempo, and Undo takes it back', async () => {
    const waltz = track({ reason: 'meter_3_4', meter: '3/4' });
    const { fake, calls } = api({ tracks: (list) => reply(list, [waltz]) });
    renderApp('/targets/t1?list=skipped', fake);
    const row = await screen.findByTestId('track-row');
    fireEvent.click(within(row).getByRole('button', { name: 'Fix tempo' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('meter-choice').textContent).toContain(
      'Meter: 3/4 (a waltz), as the sources and the audio heard it.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'This one is in 4/4' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')).toEqual({
        path: '/api/spotify/meter_corrections/isrc%3AUSUM71703861',
        method: 'PUT',
        body: { meter: '4/4', remove_from_old_targets: false },
      }),
    );
    const snack = await screen.findByRole('alert');
    expect(snack.textContent).toContain('is in 4/4 now.');
    fireEvent.click(within(snack).getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
        '/api/spotify/meter_corrections/isrc%3AUSUM71703861',
      ]),
    );
  });

  it('a song of no known meter offers no “This one is in 4/4”, and any meter can be set', async () => {
    const { fake, calls } = api();
    renderApp('/targets/t1', fake);
    const row = await screen.findByTestId('track-row');
    fireEvent.click(within(row).getByRole('button', { name: 'Fix tempo' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Meter: not known (taken as 4/4).')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'This one is in 4/4' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: '6/8' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
        meter: '6/8',
        remove_from_old_targets: false,
      }),
    );
  });

  it('taps a tempo with the space bar and saves it as the runner’s correction', async () => {
    const { fake, calls } = api();
    renderApp('/targets/t1', fake);
    const row = await screen.findByTestId('track-row');
    fireEvent.click(within(row).getByRole('button', { name: 'Fix tempo' }));
    const dialog = await screen.findByRole('dialog');
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
    for (const t of [10_000, 10_500, 11_000, 11_020, 11_500]) {
      clock = t; // 11,020: a stray double tap
      fireEvent.keyDown(within(dialog).getByText(/Now:/), { key: ' ' });
    }
    expect(within(dialog).getByTestId('tap-result').textContent).toBe('Tapped: 120 BPM (5 taps)');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save tempo' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')).toEqual({
        path: '/api/spotify/tempo_corrections/isrc%3AUSUM71703861',
        method: 'PUT',
        body: { bpm: 120, remove_from_old_targets: false },
      }),
    );
  });

  it('reopened after a correction, the dialog says the corrected tempo, not the one it was placed with', async () => {
    const corrected = track({ bpm: 170.8, fold: null, resolver_bpm: 170.8, corrected_bpm: 120 });
    const { fake } = api({ tracks: (list) => reply(list, [corrected]) });
    renderApp('/targets/t1', fake);
    const row = await screen.findByTestId('track-row');
    fireEvent.click(within(row).getByRole('button', { name: 'Fix tempo' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Now:/).textContent).toBe(
      'Now: 120 BPM from your correction; the sources said 170.8 BPM; this playlist still has it at 170.8 BPM, where it was placed.',
    );
    expect((within(dialog).getByLabelText(/BPM/) as HTMLInputElement).value).toBe('120');
  });

  it('offers no change in sudo mode (read-only)', async () => {
    const { fake, calls } = api({ sudo: 'ria@example.com' });
    renderApp('/targets/t1?sudo=ria@example.com', fake);
    await screen.findByTestId('track-row');
    expect(screen.queryByRole('button', { name: 'Fix tempo' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Exclude…' })).toBeNull();
    expect(screen.getByText('Viewing only: changes are disabled in sudo mode.')).toBeTruthy();
    expect(calls.find((c) => c.path.startsWith('/api/spotify/targets/t1/tracks'))!.path).toContain(
      'sudo=ria',
    );
  });

  // Once, "No track is skipped." above "0 of 220" for an offset past the end.
  it('an offset past the end goes to the last page, never saying the list is empty', async () => {
    const { fake, calls } = api({
      tracks: (list, offset) => ({
        data: {
          ...reply(list, offset === 200 ? [track({ title: 'Last one' })] : []).data,
          total: 220,
          next_offset: null,
        },
      }),
    });
    const { router } = renderApp('/targets/t1?list=skipped&offset=250', fake);
    expect(await screen.findByText('Last one')).toBeTruthy();
    expect(router.state.location.search).toBe('?list=skipped&offset=200');
    expect(screen.queryByText('No track is skipped.')).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Pages of skipped tracks' }).textContent).toContain(
      '201–201 of 220',
    );
    expect(calls.some((c) => c.path.includes('offset=200'))).toBe(true);
  });

  // Saving a tempo used to close the dialog without a word.
  it('confirms a saved tempo in a snackbar whose Undo removes the correction again', async () => {
    const { fake, calls } = api();
    renderApp('/targets/t1', fake);
    const row = await screen.findByTestId('track-row');
    fireEvent.click(within(row).getByRole('button', { name: 'Fix tempo' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('BPM'), { target: { value: '172' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save tempo' }));
    const snack = await screen.findByRole('alert');
    expect(snack.textContent).toContain('Tempo of “<img src=x onerror=alert(1)> Run” saved: 172 BPM.');
    fireEvent.click(within(snack).getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
        '/api/spotify/tempo_corrections/isrc%3AUSUM71703861',
      ]),
    );
    expect(await screen.findByText('Undone.')).toBeTruthy();
  });

  it('confirms an exclusion in a snackbar whose Undo restores it', async () => {
    const { fake, calls } = api();
    renderApp('/targets/t1', fake);
    const row = await screen.findByTestId('track-row');
    fireEvent.click(within(row).getByRole('button', { name: 'Exclude…' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'This track' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Exclude' }));
    const snack = await screen.findByRole('alert');
    expect(snack.textContent).toContain('“<img src=x onerror=alert(1)> Run” is excluded.');
    fireEvent.click(within(snack).getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
        '/api/spotify/exclusions/track/isrc%3AUSUM71703861',
      ]),
    );
  });

  // The dialog used to ask to tap along without letting the runner hear the song.
  it('plays the song in Spotify’s embed player in the fix-tempo dialog', async () => {
    const { fake } = api();
    renderApp('/targets/t1', fake);
    fireEvent.click(
      within(await screen.findByTestId('track-row')).getByRole('button', { name: 'Fix tempo' }),
    );
    const dialog = await screen.findByRole('dialog');
    const player = within(dialog).getByTitle('Spotify player: <img src=x onerror=alert(1)> Run');
    expect(player.getAttribute('src')).toBe('https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC');
  });

  it('in demo mode says the song cannot be played there', async () => {
    const { fake } = api({ demo: true });
    renderApp('/targets/t1', fake);
    fireEvent.click(
      within(await screen.findByTestId('track-row')).getByRole('button', { name: 'Fix tempo' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog.querySelector('iframe')).toBeNull();
    expect(within(dialog).getByTestId('no-player').textContent).toContain('This song cannot be played here');
  });

  it('leads the row with the runner’s own tempo once they set one', async () => {
    const { fake } = api({
      tracks: (list) =>
        reply(list, [
          track({ bpm: 172, fold: null, source: 'correction', confidence: null, corrected_bpm: 172 }),
        ]),
    });
    renderApp('/targets/t1', fake);
    const row = await screen.findByTestId('track-row');
    expect(within(row).getByTestId('track-tempo').textContent).toBe(
      'Your tempo: 172 BPM (the sources said 86 BPM)',
    );
  });
});
