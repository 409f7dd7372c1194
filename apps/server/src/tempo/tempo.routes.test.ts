import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { ErrorReply, TempoCreditsReply } from '@pacebeat/contract';
import { describe, expect, it } from 'vitest';
import { installErrorHandler } from '../http/error-handler.ts';
import { tempoRoutes } from './tempo.routes.ts';

async function app(getSongBpm: boolean) {
  const a = Fastify();
  a.setValidatorCompiler(validatorCompiler);
  a.setSerializerCompiler(serializerCompiler);
  installErrorHandler(a);
  await a.register(tempoRoutes, { tempo: { credits: () => ({ getSongBpm }) } });
  return a;
}

describe('GET /api/tempo/credits', () => {
  it.each([true, false])(
    'tells the web app whether to show the GetSongBPM link (%s), without a session',
    async (on) => {
      const a = await app(on);
      const res = await a.inject({ method: 'GET', url: '/api/tempo/credits' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { getsongbpm: on } });
      expect(TempoCreditsReply.parse(res.json())).toEqual({ data: { getsongbpm: on } });
      await a.close();
    },
  );

  it('answers 400 with the error envelope for a malformed sudo value', async () => {
    const a = await app(true);
    const res = await a.inject({ method: 'GET', url: `/api/tempo/credits?sudo=${'x'.repeat(321)}` });
    expect(res.statusCode).toBe(400);
    expect(ErrorReply.parse(res.json()).error.code).toBe('ValidationError');
    await a.close();
  });
});
