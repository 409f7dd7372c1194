import type { ExclusionsReply } from '@pacebeat/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { jsonReply, renderApp, type FakeApi, preloadPage } from '../test/render-app.tsx';
import { whoamiReply } from '../test/status-fixtures.ts';

const exclusion = {
  kind: 'artist' as const,
  key: 'a1',
  label: 'Slow Band',
  detail: '',
  created_at: 1_700_000_000,
};

function api(o: { sudo?: string; total?: number; at?: (offset: number) => boolean } = {}) {
  const calls: Array<{ path: string; method: string; body: unknown }> = [];
  const fake: FakeApi = (path, init) => {
    const method = init?.method ?? 'GET';
    calls.push({ path, method, body: init?.body ? JSON.parse(String(init.body)) : null });
    if (path.startsWith('/api/whoami')) return jsonReply(200, whoamiReply({ sudo: o.sudo ?? null }));
    if (path.startsWith('/api/tempo/credits')) return jsonReply(200, { data: { getsongbpm: false } });
    if (path.startsWith('/api/spotify/exclusions?') || path.startsWith('/api/spotify/exclusions&')) {
      const offset = Number(new URL(path, 'http://x').searchParams.get('offset'));
      const shown = o.at ? o.at(offset) : true;
      const reply: ExclusionsReply = {
        data: { exclusions: shown ? [exclusion] : [], total: o.total ?? 1, next_offset: null },
      } as ExclusionsReply;
      return jsonReply(200, reply);
    }
    if (path.startsWith('/api/spotify/exclusions/'))
      return method === 'DELETE'
        ? jsonReply(200, { data: { undone: true } })
        : jsonReply(200, { data: { exclusion, removals_requested: 0 } });
    return jsonReply(404, { error: { code: 'NotFound', message: 'Not found' }, requestId: 'r' });
  };
  return { fake, calls };
}

afterEach(() => vi.restoreAllMocks());

beforeAll(() => preloadPage('/excluded'), 120_000);

describe('the Excluded page', () => {
  // Restoring used to close without a word.
  it('confirms a restore in a snackbar whose Undo excludes it again', async () => {
    const { fake, calls } = api();
    renderApp('/excluded', fake);
    fireEvent.click(await screen.findByRole('button', { name: 'Restore Slow Band' }));
    const snack = await screen.findByRole('alert');
    expect(snack.textContent).toContain('“Slow Band” is restored.');
    fireEvent.click(within(snack).getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method !== 'GET').map((c) => [c.method, c.path, c.body])).toEqual([
        ['DELETE', '/api/spotify/exclusions/artist/a1', null],
        ['PUT', '/api/spotify/exclusions/artist/a1', { remove_from_targets: false }],
      ]),
    );
    expect(await screen.findByText('Undone.')).toBeTruthy();
  });

  it('says why nothing can be restored in sudo mode', async () => {
    const { fake } = api({ sudo: 'ria@example.com' });
    renderApp('/excluded?sudo=ria@example.com', fake);
    expect(await screen.findByText('Slow Band')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Restore Slow Band' })).toBeNull();
    expect(screen.getByText('Viewing only: changes are disabled in sudo mode.')).toBeTruthy();
  });
});
