import { TARGET_TEXTS } from '@pacebeat/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { PLAIN } from '../api/plain-message.ts';
import { errorReply, jsonReply, type FakeApi, preloadPage } from '../test/render-app.tsx';
import { renderApp } from '../test/render-app.tsx';
import { sourcesReply, target, targetsReply, whoamiReply } from '../test/status-fixtures.ts';

const histogram = {
  data: { fold: { min: 110, max: 220 }, bins: [], tracks_with_tempo: 0, tracks_without_tempo: 3 },
};

/** The paces page's API; records the writes it receives. */
function pacesApi(
  o: {
    sudo?: string;
    patch?: (body: unknown) => Response;
    post?: (body: unknown) => Response | Promise<Response>;
  } = {},
) {
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
          target({ target_id: 't2', target: 'Pace 5:00/km (166–176 BPM)', bpms: { min: 166, max: 176 } }),
          target({ target_id: 't3', target: 'Hills', bpms: { min: 140, max: 150 } }),
        ]),
      );
    if (route === '/api/spotify/sources') return jsonReply(200, sourcesReply());
    if (route === '/api/spotify/tempo_histogram') return jsonReply(200, histogram);
    if (/^\/api\/spotify\/targets\/t[23]$/.test(route) && method === 'PATCH')
      return jsonReply(200, { data: { target: target() } });
    if (route === '/api/spotify/targets/t1' && method === 'PATCH')
      return o.patch?.(JSON.parse(String(init!.body))) ?? jsonReply(200, { data: { target: target() } });
    if (route === '/api/spotify/targets' && method === 'POST')
      return o.post?.(JSON.parse(String(init!.body))) ?? jsonReply(200, { data: { target: target() } });
    if (route === '/api/tempo/credits') return jsonReply(200, { data: { getsongbpm: false } });
    return errorReply(404, 'NotFound', `No route ${route}`);
  };
  return { api, writes };
}

beforeAll(() => preloadPage('/paces'), 120_000);

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

  it('lets a pace take songs in 6/8 and 3/4, saying why they are left out by default', async () => {
    const { api, writes } = pacesApi();
    renderApp('/paces', api);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Pacebeat 150–160 BPM' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit pace' });
    const meters = within(dialog).getByRole('group', { name: 'Also take songs in' });
    expect(meters.textContent).toContain('in 3/4: the beat falls on alternating feet');
    for (const m of ['6/8', '3/4']) fireEvent.click(within(meters).getByRole('checkbox', { name: m }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]!.body).toMatchObject({ filters: { meters_included: ['3/4', '6/8'] } });
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

  // Messages and forms: refusals as sentences under their fields, one add per click, preset names.
  const validation = (field: string, message: string) =>
    jsonReply(400, {
      error: { code: 'ValidationError', message, fields: [{ field, message }] },
      error_name: 'ValidationError',
      requestId: 'req-1',
    });
  const openAdd = async () => {
    fireEvent.click(await screen.findByRole('button', { name: 'Add a pace' }));
    return screen.findByRole('dialog', { name: 'Add a pace' });
  };
  const description = (input: HTMLElement) =>
    (input.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');

  it('shows the server’s refusal as a sentence under the field it concerns, and moves there', async () => {
    const { api } = pacesApi({ post: () => validation('name', TARGET_TEXTS.nameControl) });
    renderApp('/paces', api);
    const dialog = await openAdd();
    const nameInput = within(dialog).getByLabelText('Name');
    fireEvent.change(nameInput, { target: { value: 'Long run' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(description(nameInput)).toContain(TARGET_TEXTS.nameControl));
    expect(nameInput.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(nameInput);
    expect(dialog.textContent).not.toMatch(/body:|name: /);
  });

  it('never shows a raw validation text (an older server’s “body: name: …”)', async () => {
    const { api } = pacesApi({
      post: () => errorReply(400, 'ValidationError', 'body: name: Invalid input: expected string'),
    });
    renderApp('/paces', api);
    const dialog = await openAdd();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText(PLAIN.notAccepted)).toBeTruthy();
    expect(dialog.textContent).not.toContain('body:');
    // Above the form, where it is seen: before the presets.
    const alert = within(dialog).getByRole('alert');
    const presets = within(dialog).getByText('Presets');
    expect(alert.compareDocumentPosition(presets) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('clears a refusal once the field it concerns is edited', async () => {
    const { api } = pacesApi({
      post: () => errorReply(409, 'TargetNameTaken', 'You already have a target of that name.'),
    });
    renderApp('/paces', api);
    const dialog = await openAdd();
    const nameInput = within(dialog).getByLabelText('Name');
    fireEvent.change(nameInput, { target: { value: 'Easy' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(description(nameInput)).toContain('You already have a target of that name.'));
    fireEvent.change(nameInput, { target: { value: 'Easy 2' } });
    expect(within(dialog).queryByText('You already have a target of that name.')).toBeNull();
    expect(nameInput.getAttribute('aria-invalid')).toBe('false');
  });

  it('sends one target for a double click on Add', async () => {
    const answers: Array<(r: Response) => void> = [];
    const { api, writes } = pacesApi({ post: () => new Promise<Response>((r) => answers.push(r)) });
    renderApp('/paces', api);
    const dialog = await openAdd();
    const add = within(dialog).getByRole('button', { name: 'Add' });
    fireEvent.click(add);
    fireEvent.click(add);
    await waitFor(() => expect(writes.length).toBeGreaterThan(0));
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(writes).toHaveLength(1);
    await act(async () => {
      for (const answer of answers) answer(jsonReply(200, { data: { target: target() } }));
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(await screen.findByText('Added. Its playlist appears with its first songs.')).toBeTruthy();
  });

  it('a preset’s name follows the BPMs until the runner types their own', async () => {
    const { api, writes } = pacesApi();
    renderApp('/paces', api);
    const dialog = await openAdd();
    fireEvent.change(within(dialog).getByLabelText('Cadence (steps/min)'), { target: { value: '170' } });
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Use' })[0]!);
    const nameInput = within(dialog).getByLabelText('Name') as HTMLInputElement;
    expect(nameInput.value).toBe('Cadence 170 (165–175 BPM)');
    fireEvent.change(within(dialog).getByLabelText('Highest BPM'), { target: { value: '180' } });
    expect(nameInput.value).not.toContain('165–175');
    expect(description(nameInput)).toContain('Pacebeat 165–180 BPM');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]!.body).toMatchObject({ min_bpm: 165, max_bpm: 180 });
    expect(writes[0]!.body).not.toHaveProperty('name');
  });

  it('keeps a name the runner typed when the BPMs change, and takes a joined emoji', async () => {
    const { api, writes } = pacesApi();
    renderApp('/paces', api);
    const dialog = await openAdd();
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Use' })[0]!);
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '🏃‍♀️ Tempo' } });
    fireEvent.change(within(dialog).getByLabelText('Lowest BPM'), { target: { value: '160' } });
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('🏃‍♀️ Tempo');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]!.body).toMatchObject({ name: '🏃‍♀️ Tempo', min_bpm: 160 });
  });

  it('editing the range of a pace a preset named renames it after the new range; a name of one’s own stays', async () => {
    const { api, writes } = pacesApi();
    renderApp('/paces', api);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Pace 5:00/km (166–176 BPM)' }));
    let dialog = await screen.findByRole('dialog', { name: 'Edit pace' });
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe(
      'Pace 5:00/km (166–176 BPM)',
    );
    fireEvent.change(within(dialog).getByLabelText('Highest BPM'), { target: { value: '180' } });
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Pacebeat 166–180 BPM');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]).toMatchObject({
      path: '/api/spotify/targets/t2',
      body: { name: 'Pacebeat 166–180 BPM', max_bpm: 180 },
    });

    await screen.findByText('Saved. New matches are placed shortly.');
    fireEvent.click(screen.getByRole('button', { name: 'Edit Hills' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit pace' });
    fireEvent.change(within(dialog).getByLabelText('Highest BPM'), { target: { value: '155' } });
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('Hills');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes).toHaveLength(2));
    expect(writes[1]!.body).not.toHaveProperty('name');
  });
});
