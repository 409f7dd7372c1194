// The library's calls of spec §7, under /api/spotify: the Sources table and its switch. Reading is allowed
// in sudo mode (an admin looks at another user's sources); nothing is written in sudo mode: no switch,
// and no rescan is asked for on the user's behalf.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SourcesReply } from '@pacebeat/contract';
import { limitAction } from '../http/action-limits.ts';
import { forbidSudo, requireUser } from '../http/auth.plugin.ts';
import { endpoint } from '../http/endpoint.ts';
import { createSerializedOnce } from '../http/serialized-once.ts';
import type { LibraryService } from './library.service.ts';
import type { RefreshService } from './refresh.service.ts';
import { readerKey } from '../http/format-time.ts';

export interface LibraryRoutesOptions {
  library: Pick<LibraryService, 'sources' | 'changeSource' | 'statusPagePolled'>;
  /** "Refresh now" and the tempo chart; absent: not served. */
  refresh?: RefreshService;
}

export async function libraryRoutes(app: FastifyInstance, opts: LibraryRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The same data (the service's cached presentation) is serialised once.
  const sendSources = createSerializedOnce((data: SourcesReply['data']) => ({ data }));

  r.route({
    ...endpoint('library.sources'),
    onRequest: requireUser,
    handler: async (req, reply) => {
      const auth = req.auth!;
      if (!auth.sudo) await opts.library.statusPagePolled(auth.user.id);
      const timeZone = readerKey(auth.timeZone, req.headers['accept-language']);
      const data = await opts.library.sources(auth.user.id, { timeZone });
      sendSources(reply, data);
      return reply;
    },
  });

  r.route({
    ...endpoint('library.sourceChange'),
    onRequest: requireUser,
    preHandler: [forbidSudo, limitAction('sources')],
    handler: async (req) => {
      const auth = req.auth!;
      const timeZone = readerKey(auth.timeZone, req.headers['accept-language']);
      const source = await opts.library.changeSource(auth.user.id, req.body, { timeZone });
      return { data: { source } };
    },
  });

  const refresh = opts.refresh;
  if (!refresh) return;

  r.route({
    ...endpoint('library.refresh'),
    onRequest: requireUser,
    preHandler: [forbidSudo, limitAction('refresh')],
    handler: async (req) => {
      const auth = req.auth!;
      const timeZone = readerKey(auth.timeZone, req.headers['accept-language']);
      return { data: await refresh.refresh(auth.user.id, req.body, { timeZone }) };
    },
  });

  r.route({
    ...endpoint('library.tempoHistogram'),
    onRequest: requireUser,
    handler: async (req) => ({ data: await refresh.tempoHistogram(req.auth!.user.id) }),
  });
}
