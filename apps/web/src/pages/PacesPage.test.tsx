import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorReply, jsonReply, type FakeApi } from '../test/render-app.tsx';
import { renderApp } from '../test/render-app.tsx';
import { sourcesReply, target, targetsReply, whoamiReply } from '../test/status-fixtures.ts';

const histogram = {
  data: { fold: { min: 110, max: 220 }, bins: [], tracks_with_tempo: 0, tracks_without_tempo: 3 },
};

/** The paces page's API; records the writes it receives. */
function pacesApi(o: { sudo?: string; patch?: (body: unknown) => Response } = {}) {
  const writes: Array<{ method: string; path: string; body: unknown }> = [];
  const api: FakeApi = (path, init) => {
    const route = path.split('?')[0]!;
    const method = init?.method ?? 'GET';
    if (method !== 'GET')
      writes.push({ method, path: route, body: init?.body ? JSON.parse(String(init.body)) : null });
    if (route === '/api/whoami') return jsonReply(200, whoamiReply({ sudo: o.sudo ?? null }));
    if (route === '/api/spotify/targets' && method === 'GET')
      return jsonReply(
        200,
        targetsReply([
          target({ target_id: 't1', target: 'Pacebeat 150–160 BPM', bpms: { min: 150, max: 160 } }),
        ]),
      );
    if (route === '/api/spotify/sources') return jsonReply(200, sourcesReply());
    if (route === '/api/spotify/tempo_histogram') return jsonReply(200, histogram);
    if (route === '/api/spotify/targets/t1' && method === 'PATCH')
      return o.patch?.(JSON.parse(String(init!.body))) ?? jsonReply(200, { data: { target: target() } });
    if (route === '/api/tempo/credits') return jsonReply(200, { data: { getsongbpm: false } });
    return errorReply(404, 'NotFound', `No route ${route}`);
  };
  return { api, writes };
}

describe('/paces', () => {
  it('edits a range: only what changed is sent (the name is left to follow the range)', async () => {
    const { api, writes } = pacesApi();
    renderApp('/paces', api);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Pacebeat 150–160 BPM' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit pace' });
    fireEvent.change(within(dialog).getByLabelText('Highest BPM'), { target: { value: '170' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]).toMatchObject({ method: 'PATCH', path: '/api/spotify/targets/t1' });
    expect(writes[0]!.body).toMatchObject({ min_bpm: 150, max_bpm: 170 });
    expect(writes[0]!.body).not.toHaveProperty('name');
    expect(await screen.findByText('Saved. New matches are placed shortly.')).toBeTruthy();
  });

  it('refuses a range outside 60–220 before sending, and shows the server’s refusal', async () => {
    const { api, writes } = pacesApi({
      patch: () => errorReply(409, 'TargetNameTaken', 'You already have a target of that name.'),
    });
    renderApp('/paces', api);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Pacebeat 150–160 BPM' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit pace' });
    fireEvent.change(within(dialog).getByLabelText('Lowest BPM'), { target: { value: '40' } });
    expect(within(dialog).getByText('From 60 to 220 BPM.')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Lowest BPM'), { target: { value: '150' } });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Pacebeat 170–180 BPM' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('You already have a target of that name.')).toBeTruthy();
    expect(writes).toHaveLength(1);
  });

  it('the delete confirmation says the Spotify playlist stays', async () => {
    const { api } = pacesApi();
    renderApp('/paces', api);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Pacebeat 150–160 BPM' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete “Pacebeat 150–160 BPM”?' });
    expect(dialog.textContent).toContain('The playlist and its songs stay in your Spotify account');
  });

  it('sudo mode reads but offers no change', async () => {
    const { api, writes } = pacesApi({ sudo: 'alice@example.com' });
    renderApp('/paces?sudo=alice%40example.com', api);
    expect(await screen.findByText('Viewing only: changes are disabled in sudo mode.')).toBeTruthy();
    expect(await screen.findByText('Pacebeat 150–160 BPM')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add a pace' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();
    expect((screen.getByRole('button', { name: 'Refresh now' }) as HTMLButtonElement).disabled).toBe(true);
    expect(writes).toEqual([]);
  });
});
