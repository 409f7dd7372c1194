// Small helpers for tests that talk to a running sandbox over HTTP.
import type { Sandbox } from './index.ts';

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** A fetch that parses JSON answers (and leaves others as text). */
export async function http<T = unknown>(
  url: string,
  opts: {
    method?: string;
    token?: string;
    json?: unknown;
    form?: Record<string, string>;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers['authorization'] = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  }
  const res = await fetch(url, {
    method: opts.method ?? 'GET',
    headers,
    redirect: 'manual',
    ...(body !== undefined ? { body } : {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/** A Web API client bound to one user's access token. */
export function spotifyClient(sandbox: Sandbox, token: string) {
  return <T = Record<string, unknown>>(method: string, path: string, json?: unknown) =>
    http<T>(`${sandbox.baseUrls.spotifyApi}${path}`, {
      method,
      token,
      ...(json !== undefined ? { json } : {}),
    });
}
