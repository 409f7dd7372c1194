import { PingReply } from '@pacebeat/contract';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, apiUrl, createApiClient } from './client.ts';

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

describe('apiUrl', () => {
  it('puts paths under /api', () => {
    expect(apiUrl('ping')).toBe('/api/ping');
    expect(apiUrl('/spotify/targets')).toBe('/api/spotify/targets');
  });

  it('appends sudo, encoded, and keeps a query already in the path', () => {
    expect(apiUrl('whoami', 'bob@example.com')).toBe('/api/whoami?sudo=bob%40example.com');
    expect(apiUrl('spotify/targets?page=2', 'u1')).toBe('/api/spotify/targets?page=2&sudo=u1');
  });
});

describe('createApiClient', () => {
  it('appends sudo to every API URL when a sudo value is set', async () => {
    const fetch = fakeFetch(200, { message: 'pong' });
    const api = createApiClient({ sudo: 'alice@example.com', fetch });
    await api.get('ping', PingReply);
    await api.post('spotify/source_change', { enabled: true }, PingReply);
    await api.put('spotify/disconnect', undefined, PingReply);
    expect(fetch.mock.calls.map(([url]) => url)).toEqual([
      '/api/ping?sudo=alice%40example.com',
      '/api/spotify/source_change?sudo=alice%40example.com',
      '/api/spotify/disconnect?sudo=alice%40example.com',
    ]);
  });

  it('adds no sudo parameter without a sudo value', async () => {
    const fetch = fakeFetch(200, { message: 'pong' });
    await createApiClient({ fetch }).get('ping', PingReply);
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/ping');
  });

  it('sends credentials and JSON, and returns the validated reply', async () => {
    const fetch = fakeFetch(200, { message: 'pong', extra: 'dropped' });
    const reply = await createApiClient({ fetch }).post(
      'login',
      { provider: 'firebase', token: 't' },
      PingReply,
    );
    expect(reply).toEqual({ message: 'pong' });
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    expect(init?.body).toBe('{"provider":"firebase","token":"t"}');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
  });

  it('turns the error envelope into an ApiError', async () => {
    const fetch = fakeFetch(401, {
      error: { code: 'Unauthorized', message: 'Sign in first.' },
      error_name: 'Unauthorized',
      requestId: 'req-7',
    });
    const error = await createApiClient({ fetch })
      .get('ping', PingReply)
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
    const error = await api.post('x', {}, PingReply).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).fields).toEqual(fields);
  });

  it('reports an answer without the envelope as HttpError', async () => {
    const fetch = fakeFetch(502, '<html>Bad Gateway</html>');
    await expect(createApiClient({ fetch }).get('ping', PingReply)).rejects.toMatchObject({
      status: 502,
      code: 'HttpError',
    });
  });

  it('rejects a reply that does not match the contract', async () => {
    const fetch = fakeFetch(200, { msg: 'pong' });
    await expect(createApiClient({ fetch }).get('ping', PingReply)).rejects.toMatchObject({
      status: 200,
      code: 'InvalidReply',
    });
  });

  it('reports a failed connection as NetworkError with status 0', async () => {
    const fetch = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(createApiClient({ fetch }).get('ping', PingReply)).rejects.toMatchObject({
      status: 0,
      code: 'NetworkError',
      message: 'Failed to fetch',
    });
  });
});
