// /api/spotify/runs: the runner's saved runs (workouts), built into one playlist each. Reads serve sudo
// mode (an admin looks at another user's); changes are refused in it. A build or a send costs Spotify
// calls, so it counts against the runner's `runs` action limit. Another user's run answers 404.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { limitAction } from '../http/action-limits.ts';
import { forbidSudo, requireUser } from '../http/auth.plugin.ts';
import { endpoint } from '../http/endpoint.ts';
import type { RunsService } from './runs.service.ts';

export interface RunsRoutesOptions {
  runs: Pick<RunsService, 'list' | 'get' | 'create' | 'edit' | 'remove' | 'build' | 'send'>;
}

export async function runsRoutes(app: FastifyInstance, opts: RunsRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const change = { onRequest: requireUser, preHandler: [forbidSudo] };
  const spend = { onRequest: requireUser, preHandler: [forbidSudo, limitAction('runs')] };

  r.route({
    ...endpoint('runs.list'),
    onRequest: requireUser,
    handler: async (req) => ({ data: { runs: await opts.runs.list(req.auth!.user.id) } }),
  });

  r.route({
    ...endpoint('runs.get'),
    onRequest: requireUser,
    handler: async (req) => ({ data: { run: await opts.runs.get(req.auth!.user.id, req.params.id) } }),
  });

  r.route({
    ...endpoint('runs.create'),
    ...change,
    handler: async (req) => ({ data: { run: await opts.runs.create(req.auth!.user.id, req.body) } }),
  });

  r.route({
    ...endpoint('runs.edit'),
    ...change,
    handler: async (req) => ({
      data: { run: await opts.runs.edit(req.auth!.user.id, req.params.id, req.body) },
    }),
  });

  r.route({
    ...endpoint('runs.remove'),
    ...change,
    handler: async (req) => {
      await opts.runs.remove(req.auth!.user.id, req.params.id);
      return { data: { deleted: true as const } };
    },
  });

  r.route({
    ...endpoint('runs.build'),
    ...spend,
    handler: async (req) => ({ data: { run: await opts.runs.build(req.auth!.user.id, req.params.id) } }),
  });

  r.route({
    ...endpoint('runs.send'),
    ...spend,
    handler: async (req) => ({ data: { run: await opts.runs.send(req.auth!.user.id, req.params.id) } }),
  });
}
