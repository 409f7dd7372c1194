import type { Run, RunBody } from '@pacebeat/contract';
import { runPreset, unfoldRun } from '@pacebeat/contract/rules';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { jsonReply, renderApp, type FakeApi, preloadPage } from '../test/render-app.tsx';
import { whoamiReply } from '../test/status-fixtures.ts';

const RUN_ID = '0b7c2d4e-6f8a-4b1c-9d2e-3f4a5b6c7d8e';

const asRun = (b: RunBody): Run => ({
  run_id: RUN_ID,
  ...b,
  public_url: null,
  planned_s: 0,
  description: '',
  segments: unfoldRun(b.blocks).map((s) => ({ ...s, pool: 10 })),
  pool_notes: [],
  build: null,
});

function api() {
  const sent: Array<{ method: string; path: string; body: RunBody }> = [];
  let current: Run | null = null;
  const fake: FakeApi = (path, init) => {
    const method = init?.method ?? 'GET';
    if (path.startsWith('/api/whoami')) return jsonReply(200, whoamiReply());
    if (path.startsWith('/api/tempo/credits')) return jsonReply(200, { data: { getsongbpm: false } });
    if (method !== 'GET' && path.startsWith('/api/spotify/runs')) {
      const body = JSON.parse(String(init!.body)) as RunBody;
      sent.push({ method, path, body });
      current = asRun(body);
      return jsonReply(200, { data: { run: current } });
    }
    if (path.startsWith(`/api/spotify/runs/${RUN_ID}`)) return jsonReply(200, { data: { run: current } });
    if (path.startsWith('/api/spotify/runs'))
      return jsonReply(200, {
        data: {
          runs: current
            ? [
                {
                  run_id: RUN_ID,
                  name: current.name,
                  planned_s: 3000,
                  segments: 14,
                  public_url: null,
                  built_at: null,
                },
              ]
            : [],
        },
      });
    return jsonReply(404, { error: { code: 'NotFound', message: 'Not found' }, requestId: 'r' });
  };
  return { fake, sent };
}

afterEach(() => vi.restoreAllMocks());

beforeAll(() => preloadPage('/runs'), 120_000);

describe('the runs pages', () => {
  it('makes a run from a preset at the runner’s cadence, and edits a part by cadence', async () => {
    const { fake, sent } = api();
    const { router } = renderApp('/runs', fake);
    expect(await screen.findByText('No run yet: make one from a preset below.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Your easy cadence (steps a minute)'), {
      target: { value: '170' },
    });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Tuesday' } });
    fireEvent.click(screen.getByRole('button', { name: 'Make this run' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/runs/${RUN_ID}`));
    expect(sent[0]).toEqual({
      method: 'POST',
      path: '/api/spotify/runs',
      body: {
        name: 'Tuesday',
        blocks: runPreset('intervals', 170),
        half_time: true,
        no_explicit: false,
        liked_only: false,
      },
    });

    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    fireEvent.change(screen.getByLabelText('Part 1: or a cadence or pace'), { target: { value: '180' } });
    fireEvent.change(screen.getByLabelText('Part 1: minutes'), { target: { value: '12.5' } });
    fireEvent.blur(screen.getByLabelText('Part 1: minutes'));
    // The cool-down moved up to the top: each part shows its own values (the fields are keyed by place).
    fireEvent.click(screen.getByRole('button', { name: 'Move Part 3 up' }));
    fireEvent.click(screen.getByRole('button', { name: 'Move Part 2 up' }));
    const minutesOf = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;
    expect([minutesOf('Part 1: minutes'), minutesOf('Part 2: minutes')]).toEqual(['10', '12.5']);
    expect(minutesOf('Repeat 3: times')).toBe('6');
    fireEvent.click(screen.getByRole('switch', { name: /Leave out explicit songs/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save the run' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]!.method).toBe('PUT');
    const [warmUp, repeat, coolDown] = runPreset('intervals', 170);
    expect(sent[1]!.body.blocks).toEqual([
      coolDown,
      { kind: 'segment', duration_s: 750, label: 'Warm-up', min_bpm: 175, max_bpm: 185 },
      repeat,
    ]);
    expect(warmUp).toMatchObject({ duration_s: 600, label: 'Warm-up' });
    expect(sent[1]!.body.no_explicit).toBe(true);
  });
});
