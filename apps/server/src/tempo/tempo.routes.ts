// /api/tempo: what the web app needs to know about tempo sources. Public: the footer shows the
// GetSongBPM link on every page (their terms require it wherever their data is used).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TempoService } from './tempo.service.ts';

// Belongs in packages/contract (one schema per endpoint, shared with the web app); here until it moves.
export const TempoCreditsReply = z.object({
  data: z.object({
    /** GetSongBPM is in use: show a visible link to https://getsongbpm.com in the footer. */
    getsongbpm: z.boolean(),
  }),
});

export interface TempoRoutesOptions {
  tempo: Pick<TempoService, 'credits'>;
}

export async function tempoRoutes(app: FastifyInstance, opts: TempoRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/credits', { schema: { response: { 200: TempoCreditsReply } } }, async () => ({
    data: { getsongbpm: opts.tempo.credits().getSongBpm },
  }));
}
