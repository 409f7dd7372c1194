import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context.ts';

export function registerDeezerRoutes(_app: FastifyInstance, _ctx: Ctx): void {}
