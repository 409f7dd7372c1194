import type { Run } from '@pacebeat/contract';
import { runPreset, unfoldRun } from '@pacebeat/contract/rules';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorReply, jsonReply, renderApp, type FakeApi, preloadPage } from '../test/render-app.tsx';
import { whoamiReply } from '../test/status-fixtures.ts';

const RUN_ID = '0b7c2d4e-6f8a-4b1c-9d2e-3f4a5b6c7d8e';
const blocks = runPreset('tempo', 165);
const segments = unfoldRun(blocks).map((s) => ({ ...s, pool: s.index === 1 ? 3 : 40 }));

function run(o: Partial<Run> = {}): Run {
  return {
    run_id: RUN_ID,
    name: 'Thursday <tempo>',
    blocks,
    half_time: true,
    no_explicit: false,
    liked_only: false,
    public_url: null,
    planned_s: 2400,
    description:
      '10 min warm-up at 160–170 BPM, 20 min tempo at 168–178 BPM, 10 min cool-down at 156–166 BPM',
    segments,
    pool_notes: [],
    build: null,
    ...o,
  };
}

const built = (state: 'written' | 'waiting'): Run['build'] => ({
  built_at: 1_700_000_000,
  songs: [
    {
      track_id: 't1',
      recording_key: 'spotify:t1',
      title: 'Slow <Burn>',
      artists: ['The Halves'],
      duration_ms: 600_000,
      bpm: 82.5,
      fit: 'half_time',
      segment: 0,
      start_s: 0,
      spans: false,
      fresh: true,
    },
    {
      track_id: 't2',
      recording_key: 'spotify:t2',
      title: 'Across',
      artists: ['Bridge'],
      duration_ms: 1_230_000,
      bpm: 172,
      fit: 'as_is',
      segment: 1,
      start_s: 600,
      spans: true,
      fresh: true,
    },
  ],
  total_s: 1830,
  boundary_max_s: 30,
  spotify:
    state === 'written'
      ? { state, message: null, calls: 2 }
      : {
          state,
          message:
            'Your share of the Spotify calls the runners here share for today is spent: the run is saved here, and "Send to Spotify" writes it to its playlist in about 3 hours.',
          calls: 1,
        },
});

function api(o: { current: Run; sudo?: string; buildAs?: Run }) {
  const calls: Array<{ path: string; method: string }> = [];
  const fake: FakeApi = (path, init) => {
    const method = init?.method ?? 'GET';
    calls.push({ path, method });
    if (path.startsWith('/api/whoami')) return jsonReply(200, whoamiReply({ sudo: o.sudo ?? null }));
    if (path.startsWith('/api/tempo/credits')) return jsonReply(200, { data: { getsongbpm: false } });
    if (path.startsWith(`/api/spotify/runs/${RUN_ID}/build`))
      return jsonReply(200, { data: { run: o.buildAs } });
    if (path.startsWith(`/api/spotify/runs/${RUN_ID}/send`))
      return jsonReply(200, {
        data: {
          run: { ...o.current, build: built('written'), public_url: 'https://open.spotify.com/playlist/abc' },
        },
      });
    if (path.startsWith(`/api/spotify/runs/${RUN_ID}`)) return jsonReply(200, { data: { run: o.current } });
    if (path.startsWith('/api/spotify/runs/')) return errorReply(404, 'RunNotFound', 'You have no such run.');
    return errorReply(404, 'NotFound', 'Not found');
  };
  return { fake, calls };
}

afterEach(() => vi.restoreAllMocks());

beforeAll(() => preloadPage('/runs/00000000-0000-4000-8000-000000000000'), 120_000);

describe('a run’s page', () => {
  it('warns where the pool is too small before building, then shows the built run part by part', async () => {
    const note =
      'Only 3 of your songs fit 168–178 BPM, and its 20 min need about 6: Widening it to 163–183 BPM finds 11.';
    const { fake, calls } = api({
      current: run({ pool_notes: [note] }),
      buildAs: run({ build: built('written'), public_url: 'https://open.spotify.com/playlist/abc' }),
    });
    renderApp(`/runs/${RUN_ID}`, fake);
    expect(await screen.findByRole('heading', { level: 1, name: 'Thursday <tempo>' })).toBeTruthy();
    expect(screen.getByText(note)).toBeTruthy();
    const timeline = screen.getByRole('list', { name: "The run's timeline" });
    expect(within(timeline).getByText('3 of your songs fit')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Build' }));
    expect(await screen.findByText('Slow <Burn>')).toBeTruthy();
    expect(
      calls.some((c) => c.method === 'POST' && c.path.startsWith(`/api/spotify/runs/${RUN_ID}/build`)),
    ).toBe(true);
    expect(screen.getByText('82.5 BPM, half-time: 165 steps · 10:00')).toBeTruthy();
    expect(screen.getByText('plays across the change')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(
      "2 songs, 30 min 30 s against 40 min planned; every change of part within 30 s of a song's start or end.",
    );
    const open = screen.getByRole('link', { name: /Open “Pacebeat run: Thursday <tempo>” in Spotify/ });
    expect(open.getAttribute('href')).toBe('https://open.spotify.com/playlist/abc');
    expect(screen.getByRole('button', { name: 'Rebuild' })).toBeTruthy();
  });

  it('says when the share is spent, and Send to Spotify writes the kept build', async () => {
    const { fake } = api({ current: run({ build: built('waiting') }) });
    renderApp(`/runs/${RUN_ID}`, fake);
    expect(await screen.findByText(/Your share of the Spotify calls/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send to Spotify' }));
    await waitFor(() => expect(screen.getByRole('link', { name: /in Spotify/ })).toBeTruthy());
    expect(screen.queryByText(/Your share of the Spotify calls/)).toBeNull();
  });

  it('reads only in sudo mode, and says so for a run that is not there', async () => {
    const { fake } = api({ current: run({ build: built('waiting') }), sudo: 'ria@example.com' });
    renderApp(`/runs/${RUN_ID}?sudo=ria@example.com`, fake);
    expect(await screen.findByText('Viewing only: changes are disabled in sudo mode.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Rebuild' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send to Spotify' })).toBeNull();

    renderApp('/runs/00000000-0000-4000-8000-000000000000', fake);
    expect(await screen.findByText('You have no such run.')).toBeTruthy();
  });
});
