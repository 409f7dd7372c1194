// /api/spotify/targets: the status page's "Target playlists" table (spec §3, §7), read-only, so it serves
// sudo mode too (an admin reads another user's targets); and the runner's edits of their
// targets, refused in sudo mode. Only the user's own targets: another's answers 404.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TargetsReply } from '@pacebeat/contract';
import { limitAction } from '../http/action-limits.ts';
import { forbidSudo, requireUser } from '../http/auth.plugin.ts';
import { endpoint } from '../http/endpoint.ts';
import { createSerializedOnce } from '../http/serialized-once.ts';
import type { PlaylistsService } from './playlists.service.ts';
import type { TargetEditor } from './target-editor.service.ts';
import { readerKey } from '../http/format-time.ts';

export interface PlaylistsRoutesOptions {
  playlists: Pick<PlaylistsService, 'targetsReply'>;
  /** The runner's edits (absent: read-only targets). */
  editor?: TargetEditor;
}

export async function playlistsRoutes(app: FastifyInstance, opts: PlaylistsRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The same targets (the service's cached presentation) are serialised once.
  const sendTargets = createSerializedOnce((data: TargetsReply['data']) => ({ data }));
  r.route({
    ...endpoint('targets.list'),
    onRequest: requireUser,
    handler: async (req, reply) => {
      // Times in the reader's time zone (the admin's, in sudo mode).
      const { user, timeZone } = req.auth!;
      sendTargets(
        reply,
        await opts.playlists.targetsReply(user.id, readerKey(timeZone, req.headers['accept-language'])),
      );
      return reply;
    },
  });

  const editor = opts.editor;
  if (!editor) return;
  const write = { onRequest: requireUser, preHandler: [forbidSudo, limitAction('targets')] };

  r.route({
    ...endpoint('targets.add'),
    ...write,
    handler: async (req) => {
      const { user, timeZone } = req.auth!;
      return { data: { target: await editor.add(user.id, req.body, timeZone) } };
    },
  });

  r.route({
    ...endpoint('targets.edit'),
    ...write,
    handler: async (req) => {
      const { user, timeZone } = req.auth!;
      return { data: { target: await editor.edit(user.id, req.params.id, req.body, timeZone) } };
    },
  });

  r.route({
    ...endpoint('targets.remove'),
    ...write,
    handler: async (req) => {
      await editor.remove(req.auth!.user.id, req.params.id);
      return { data: { deleted: true as const } };
    },
  });

  r.route({
    ...endpoint('targets.removeUnfitting'),
    ...write,
    handler: async (req) => ({
      data: { marked: await editor.removeUnfitting(req.auth!.user.id, req.params.id) },
    }),
  });
}
