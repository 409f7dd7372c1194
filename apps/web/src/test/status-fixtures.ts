import type { Source, SourcesReply, Target, TargetsReply } from '@pacebeat/contract';
import { errorReply, jsonReply, type FakeApi } from './render-app.tsx';

/** whoami of a signed-in runner with Spotify connected (or not). */
export const whoamiReply = (
  opts: {
    connected?: boolean;
    sudo?: string | null;
    disabled?: { service: 'spotify'; reason: string }[];
    /** Work waits until then (unix seconds), for Spotify or for the runner's share of the day. */
    waits?: { until: number; for: 'spotify' | 'share' };
    /** Why reading the artists' catalogs waits. */
    catalogsWaitFor?: 'spotify' | 'share';
  } = {},
) => ({
  data: {
    authenticated: true,
    user: { id: 'u1', email: 'runner@example.com', name: 'Ria Runner', is_admin: false },
    services: {
      spotify: {
        connected: opts.connected ?? true,
        demo: false,
        work_resumes_at: opts.waits?.until ?? null,
        work_waits_for: opts.waits?.for ?? null,
        catalogs_wait_for: opts.catalogsWaitFor ?? null,
      },
    },
    disabled_services: opts.disabled ?? [],
    sudo: opts.sudo ?? null,
  },
});

export function target(over: Partial<Target> = {}): Target {
  return {
    target_id: 't1',
    target: 'Pacebeat 160-170',
    public_url: null,
    timestamp_last_job_finished: null,
    timestamp_last_job_finished_str: null,
    bpms: { min: 160, max: 170 },
    ...over,
  };
}

export function source(over: Partial<Source> = {}): Source {
  return {
    kind: 'liked_songs',
    source_id: 'liked',
    name: 'Liked Songs',
    enabled: true,
    can_enable: true,
    timestamp_last_job_finished: null,
    timestamp_last_job_finished_str: null,
    stats: {},
    progress: {
      state: 'scanning',
      pages_read: 25,
      pages_total: 200,
      items_read: 1240,
      items_total: 10000,
      tracks_with_tempo: 900,
      resumes_at: null,
      error: null,
    },
    ...over,
  };
}

export const targetsReply = (targets: Target[] = [target()]): TargetsReply => ({ data: { targets } });
export const sourcesReply = (sources: Source[] = [source()]): SourcesReply => ({
  data: {
    sources,
    summary: { tracks_known: 1240, tracks_with_tempo: 900, tracks_without_tempo: 340 },
  },
});

type Handlers = {
  whoami?: () => Response | Promise<Response>;
  targets?: () => Response | Promise<Response>;
  sources?: () => Response | Promise<Response>;
  sourceChange?: (body: unknown) => Response | Promise<Response>;
};

/** A fake API for the signed-in status page: each call can be replaced; counts the calls made. */
export function statusApi(handlers: Handlers = {}) {
  const calls = { whoami: 0, targets: 0, sources: 0, sourceChange: 0 };
  const api: FakeApi = (path, init) => {
    const route = path.split('?')[0];
    switch (route) {
      case '/api/whoami':
        calls.whoami += 1;
        return handlers.whoami?.() ?? jsonReply(200, whoamiReply());
      case '/api/spotify/targets':
        calls.targets += 1;
        return handlers.targets?.() ?? jsonReply(200, targetsReply());
      case '/api/spotify/sources':
        calls.sources += 1;
        return handlers.sources?.() ?? jsonReply(200, sourcesReply());
      case '/api/spotify/source_change':
        calls.sourceChange += 1;
        return (
          handlers.sourceChange?.(JSON.parse(String(init?.body))) ??
          errorReply(500, 'InternalError', 'Internal Server Error')
        );
      case '/api/tempo/credits':
        return jsonReply(200, { data: { getsongbpm: false } });
      default:
        return errorReply(404, 'NotFound', `No route ${route}`);
    }
  };
  return { api, calls };
}
