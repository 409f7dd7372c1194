// /api/spotify/targets: the status page's "Target playlists" table (spec §3, §7). Read-only, so it
// serves sudo mode too (an admin reads another user's targets); nothing here writes or calls Spotify.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SudoQuery, TargetsReply } from '@pacebeat/contract';
import { requireUser } from '../http/auth.plugin.ts';
import type { PlaylistsService } from './playlists.service.ts';

export interface PlaylistsRoutesOptions {
  playlists: Pick<PlaylistsService, 'targets'>;
}

export async function playlistsRoutes(app: FastifyInstance, opts: PlaylistsRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/targets',
    { onRequest: requireUser, schema: { querystring: SudoQuery, response: { 200: TargetsReply } } },
    async (req) => {
      // Times in the reader's time zone (the admin's, in sudo mode).
      const { user, timeZone } = req.auth!;
      return { data: { targets: await opts.playlists.targets(user.id, timeZone) } };
    },
  );
}
