import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context.ts';

export function registerReccoBeatsRoutes(_app: FastifyInstance, _ctx: Ctx): void {}
