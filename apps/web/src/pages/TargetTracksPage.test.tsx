import type { TargetTracksReply, TrackRow } from '@pacebeat/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonReply, renderApp, type FakeApi } from '../test/render-app.tsx';
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

function api(o: { sudo?: string } = {}) {
  const calls: Array<{ path: string; method: string; body: unknown }> = [];
  const fake: FakeApi = (path, init) => {
    calls.push({
      path,
      method: init?.method ?? 'GET',
      body: init?.body ? JSON.parse(String(init.body)) : null,
    });
    if (path.startsWith('/api/whoami')) return jsonReply(200, whoamiReply({ sudo: o.sudo ?? null }));
    if (path.startsWith('/api/tempo/credits')) return jsonReply(200, { data: { getsongbpm: false } });
    if (path.startsWith('/api/spotify/targets/t1/tracks')) {
      const list = new URL(path, 'http://x').searchParams.get('list')!;
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
      return jsonReply(200, {
        data: { recording_key: 'isrc:USUM71703861', bpm: 120, removals_requested: 0 },
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

  it('switches to the skipped list on the server, with the reason', async () => {
    const { fake, calls } = api();
    renderApp('/targets/t1', fake);
    await screen.findByTestId('track-row');
    fireEvent.click(screen.getByRole('tab', { name: 'Skipped' }));
    expect(await screen.findByText('No source knows its tempo')).toBeTruthy();
    expect(calls.some((c) => c.path.includes('list=skipped&offset=0&limit=25'))).toBe(true);
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

  it('offers no change in sudo mode (read-only)', async () => {
    const { fake, calls } = api({ sudo: 'ria@example.com' });
    renderApp('/targets/t1?sudo=ria@example.com', fake);
    await screen.findByTestId('track-row');
    expect(screen.queryByRole('button', { name: 'Fix tempo' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Exclude…' })).toBeNull();
    expect(calls.find((c) => c.path.startsWith('/api/spotify/targets/t1/tracks'))!.path).toContain(
      'sudo=ria',
    );
  });
});
