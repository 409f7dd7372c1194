// A runner's tracks and choices under /api/spotify: a target's lists, tempo
// corrections and exclusions. Reads serve sudo mode (an admin looks at another user's); writes are refused
// in it. Every call is the signed-in user's own: another user's target answers 404.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { limitAction } from '../http/action-limits.ts';
import { forbidSudo, requireUser } from '../http/auth.plugin.ts';
import { endpoint } from '../http/endpoint.ts';
import type { ChoicesService } from './choices.service.ts';
import type { TrackListsService } from './track-lists.service.ts';

export interface ChoicesRoutesOptions {
  choices: Pick<
    ChoicesService,
    | 'correctTempo'
    | 'undoCorrection'
    | 'correctMeter'
    | 'undoMeterCorrection'
    | 'exclude'
    | 'restore'
    | 'exclusions'
  >;
  trackLists: Pick<TrackListsService, 'targetTracks'>;
}

export async function choicesRoutes(app: FastifyInstance, opts: ChoicesRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const write = { onRequest: requireUser, preHandler: [forbidSudo, limitAction('choices')] };

  r.route({
    ...endpoint('choices.targetTracks'),
    onRequest: requireUser,
    handler: async (req) => ({
      data: await opts.trackLists.targetTracks(req.auth!.user.id, req.params.targetId, req.query),
    }),
  });

  r.route({
    ...endpoint('choices.correctTempo'),
    ...write,
    handler: async (req) => ({
      data: await opts.choices.correctTempo(
        req.auth!.user.id,
        req.params.recordingKey,
        req.body.bpm,
        req.body.remove_from_old_targets,
      ),
    }),
  });

  r.route({
    ...endpoint('choices.undoCorrection'),
    ...write,
    handler: async (req) => ({
      data: await opts.choices.undoCorrection(req.auth!.user.id, req.params.recordingKey),
    }),
  });

  r.route({
    ...endpoint('choices.correctMeter'),
    ...write,
    handler: async (req) => ({
      data: await opts.choices.correctMeter(
        req.auth!.user.id,
        req.params.recordingKey,
        req.body.meter,
        req.body.remove_from_old_targets,
      ),
    }),
  });

  r.route({
    ...endpoint('choices.undoMeterCorrection'),
    ...write,
    handler: async (req) => ({
      data: await opts.choices.undoMeterCorrection(req.auth!.user.id, req.params.recordingKey),
    }),
  });

  r.route({
    ...endpoint('choices.exclusions'),
    onRequest: requireUser,
    handler: async (req) => ({
      data: await opts.choices.exclusions(req.auth!.user.id, req.query.offset, req.query.limit),
    }),
  });

  r.route({
    ...endpoint('choices.exclude'),
    ...write,
    handler: async (req) => ({
      data: await opts.choices.exclude(
        req.auth!.user.id,
        req.params.kind,
        req.params.key,
        req.body.remove_from_targets,
      ),
    }),
  });

  r.route({
    ...endpoint('choices.restore'),
    ...write,
    handler: async (req) => ({
      data: await opts.choices.restore(req.auth!.user.id, req.params.kind, req.params.key),
    }),
  });
}
