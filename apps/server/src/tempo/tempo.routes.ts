// /api/tempo: what the web app needs to know about tempo sources. Public: the footer shows the
// GetSongBPM link on every page (their terms require it wherever their data is used).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { endpoint } from '../http/endpoint.ts';
import type { TempoService } from './tempo.service.ts';

export interface TempoRoutesOptions {
  /** The credits of the tempo services in force (demo mode's simulated ones, or the real ones). */
  tempo: {
    credits: () => ReturnType<TempoService['credits']> | Promise<ReturnType<TempoService['credits']>>;
  };
}

export async function tempoRoutes(app: FastifyInstance, opts: TempoRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // SudoQuery like every /api route: the web app sends `?sudo=` on every call in sudo mode.
  r.route({
    ...endpoint('tempo.credits'),
    handler: async () => ({ data: { getsongbpm: (await opts.tempo.credits()).getSongBpm } }),
  });
}
