import { render } from '@testing-library/react';
import { createMemoryRouter, matchRoutes } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import { vi } from 'vitest';
import { App } from '../App.tsx';
import { routes } from '../routes.tsx';

/** A JSON reply as the server sends it. */
export function jsonReply(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The error envelope of the API (contract `ErrorReply`). */
export function errorReply(status: number, code: string, message: string): Response {
  return jsonReply(status, { error: { code, message }, error_name: code, requestId: 'req-1' });
}

/**
 * Loads the lazy page at `path` (its chunk and what it imports), for a test file's `beforeAll`: a first
 * visit's import took over 10 s on 2 busy cores, inside the first test's wait for the page.
 */
export async function preloadPage(path: string): Promise<void> {
  for (const { route } of matchRoutes(routes, path) ?? [])
    if (typeof route.lazy === 'function') await route.lazy();
}

export type FakeApi = (path: string, init: RequestInit | undefined) => Response | Promise<Response>;

/**
 * Renders the whole app (theme, query client, routes, root layout) at `path`, with `fetch` replaced by
 * `api`. Returns the memory router (to read the final location) and the query client.
 */
export function renderApp(path: string, api: FakeApi) {
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
    Promise.resolve(api(String(input), init)),
  );
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(<App router={router} queryClient={queryClient} />);
  return { ...view, router, fetchMock, queryClient };
}

/** A visitor: 401 to every call but the public tempo credits (no GetSongBPM key on this server). */
export const visitorApi: FakeApi = (path) =>
  path.startsWith('/api/tempo/credits')
    ? jsonReply(200, { data: { getsongbpm: false } })
    : errorReply(401, 'Unauthorized', 'Not signed in');
