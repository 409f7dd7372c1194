import { LoginReply, PingReply, type TargetDeletedReply } from '@pacebeat/contract';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, endpointUrl } from './client.ts';

function fakeFetch(status: number, body: unknown) {
  return vi.fn((_input: RequestInfo | URL, _init?: RequestInit) =>
    Promise.resolve(
      new Response(typeof body === 'string' ? body : JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      }),
    ),
  );
}

describe('endpointUrl', () => {
  it("builds a call's URL from the contract's endpoint table", () => {
    expect(endpointUrl('ping')).toBe('/api/ping');
    expect(endpointUrl('targets.list')).toBe('/api/spotify/targets');
    expect(endpointUrl('targets.edit', { params: { id: 't1' }, body: {} })).toBe('/api/spotify/targets/t1');
  });

  it('encodes each path parameter as one segment', () => {
    expect(endpointUrl('choices.restore', { params: { kind: 'track', key: 'isrc:AB/12?x#y' } })).toBe(
      '/api/spotify/exclusions/track/isrc%3AAB%2F12%3Fx%23y',
    );
  });

  it('appends the query in order, then sudo, encoded', () => {
    expect(endpointUrl('whoami', {}, 'bob@example.com')).toBe('/api/whoami?sudo=bob%40example.com');
    expect(
      endpointUrl(
        'choices.targetTracks',
        { params: { targetId: 't 1' }, query: { list: 'waiting', offset: 25, limit: undefined } },
        'u1',
      ),
    ).toBe('/api/spotify/targets/t%201/tracks?list=waiting&offset=25&sudo=u1');
  });
});

describe('createApiClient', () => {
  it('appends sudo to every API URL when a sudo value is set', async () => {
    const fetch = fakeFetch(200, { message: 'pong' });
    const api = createApiClient({ sudo: 'alice@example.com', fetch });
    await api.call('ping');
    await api.call('library.sourceChange', { body: { kind: 'liked_songs', source_id: 'x', enabled: true } });
    await api.call('spotify.disconnect');
    expect(fetch.mock.calls.map(([url, init]) => `${init?.method} ${String(url)}`)).toEqual([
      'GET /api/ping?sudo=alice%40example.com',
      'POST /api/spotify/source_change?sudo=alice%40example.com',
      'PUT /api/spotify/disconnect?sudo=alice%40example.com',
    ]);
    // A call without a body sends none (and no Content-Type).
    expect(fetch.mock.calls[2]?.[1]?.body).toBeUndefined();
    expect(new Headers(fetch.mock.calls[2]?.[1]?.headers).get('Content-Type')).toBeNull();
  });

  it('adds no sudo parameter without a sudo value', async () => {
    const fetch = fakeFetch(200, { message: 'pong' });
    await createApiClient({ fetch }).call('ping');
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/ping');
  });

  it('sends credentials and JSON, and returns the reply checked by the schema given', async () => {
    const fetch = fakeFetch(200, { data: { user_id: 'u1' }, extra: 'dropped' });
    const reply = await createApiClient({ fetch }).call('login', {
      body: { provider: 'firebase', token: 't' },
      check: LoginReply,
    });
    expect(reply).toEqual({ data: { user_id: 'u1' } });
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    expect(init?.body).toBe('{"provider":"firebase","token":"t"}');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
  });

  it("takes each call's request and reply types from the endpoint table", async () => {
    const fetch = fakeFetch(200, { data: { deleted: true } });
    const api = createApiClient({ fetch });
    const reply: TargetDeletedReply = await api.call('targets.remove', { params: { id: 't1' } });
    expect(reply.data.deleted).toBe(true);
    const refused = async (call: () => Promise<unknown>) => expect(call()).rejects.toThrow();
    // @ts-expect-error a call with a path parameter needs it
    await refused(() => api.call('targets.remove'));
    // @ts-expect-error a PATCH needs its body
    await api.call('targets.edit', { params: { id: 't1' } });
    // @ts-expect-error a GET has no body
    await api.call('whoami', { body: {} });
    // @ts-expect-error the query takes only the list names of the contract
    await api.call('choices.targetTracks', { params: { targetId: 't1' }, query: { list: 'all' } });
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('turns the error envelope into an ApiError', async () => {
    const fetch = fakeFetch(401, {
      error: { code: 'Unauthorized', message: 'Sign in first.' },
      error_name: 'Unauthorized',
      requestId: 'req-7',
    });
    const error = await createApiClient({ fetch })
      .call('ping')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 401,
      code: 'Unauthorized',
      message: 'Sign in first.',
      requestId: 'req-7',
    });
  });

  it('keeps a 400’s refusals by field, and drops malformed ones', async () => {
    const fields = [{ field: 'name', message: 'The name may not be empty.' }];
    const api = createApiClient({
      fetch: fakeFetch(400, {
        error: {
          code: 'ValidationError',
          message: 'The name may not be empty.',
          fields: [...fields, { x: 1 }],
        },
        error_name: 'ValidationError',
        requestId: 'r',
      }),
    });
    const error = await api
      .call('targets.add', { body: { min_bpm: 1, max_bpm: 2 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).fields).toEqual(fields);
  });

  it('reports an answer without the envelope as HttpError', async () => {
    const fetch = fakeFetch(502, '<html>Bad Gateway</html>');
    await expect(createApiClient({ fetch }).call('ping')).rejects.toMatchObject({
      status: 502,
      code: 'HttpError',
    });
  });

  it('rejects a reply that does not match the contract', async () => {
    const fetch = fakeFetch(200, { msg: 'pong' });
    await expect(createApiClient({ fetch }).call('ping', { check: PingReply })).rejects.toMatchObject({
      status: 200,
      code: 'InvalidReply',
    });
  });

  it('reports a failed connection as NetworkError with status 0', async () => {
    const fetch = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(createApiClient({ fetch }).call('ping')).rejects.toMatchObject({
      status: 0,
      code: 'NetworkError',
      message: 'Failed to fetch',
    });
  });
});
