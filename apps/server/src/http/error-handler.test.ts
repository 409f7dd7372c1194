import Fastify from 'fastify';
import { validatorCompiler, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorReply, NewTargetBody, REQUEST_TEXTS, TARGET_TEXTS, TargetParams } from '@pacebeat/contract';
import { z } from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { installErrorHandler } from './error-handler.ts';

// The pace dialog's and the address's refusals as the API phrases them: sentences for people,
// with the field paths beside them, never "body: name: …" or "params: targetId: Invalid UUID".
const app = Fastify();
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
installErrorHandler(app);
const typed = app.withTypeProvider<ZodTypeProvider>();
typed.post('/targets', { schema: { body: NewTargetBody } }, () => ({ ok: true }));
typed.get('/targets/:id', { schema: { params: TargetParams } }, () => ({ ok: true }));
typed.get(
  '/tracks/:targetId',
  {
    schema: {
      params: z.object({ targetId: z.uuid() }),
      querystring: z.object({ offset: z.coerce.number().int() }),
    },
  },
  () => ({ ok: true }),
);
afterAll(() => app.close());

const post = (body: unknown) => app.inject({ method: 'POST', url: '/targets', payload: body as object });

describe('validation errors', () => {
  it('answer a field’s refusal as a sentence, with the field beside it', async () => {
    const res = await post({ name: 'Long\nrun', min_bpm: 160, max_bpm: 170 });
    expect(res.statusCode).toBe(400);
    const body = ErrorReply.parse(res.json());
    expect(body.error.code).toBe('ValidationError');
    expect(body.error.message).toBe(TARGET_TEXTS.nameControl);
    expect(body.error.fields).toEqual([{ field: 'name', message: TARGET_TEXTS.nameControl }]);
  });

  it('place a refinement of the whole body under the field it concerns', async () => {
    const res = await post({
      min_bpm: 170,
      max_bpm: 160,
      filters: { min_duration_s: 300, max_duration_s: 200 },
    });
    const body = ErrorReply.parse(res.json());
    expect(body.error.fields).toEqual([
      { field: 'max_bpm', message: TARGET_TEXTS.rangeOrder },
      { field: 'filters.max_duration_s', message: TARGET_TEXTS.durationOrder },
    ]);
    expect(body.error.message).toBe(`${TARGET_TEXTS.rangeOrder} ${TARGET_TEXTS.durationOrder}`);
  });

  it('turn zod’s own texts into sentences, and a bad address into a broken link', async () => {
    const wrongType = ErrorReply.parse((await post({ min_bpm: 'fast', max_bpm: 170 })).json());
    expect(wrongType.error.message).toBe(TARGET_TEXTS.bpmNotNumber);
    const unknownKey = ErrorReply.parse((await post({ min_bpm: 150, max_bpm: 170, x: 1 })).json());
    expect(unknownKey.error.message).toBe(REQUEST_TEXTS.badRequest);

    const target = await app.inject('/targets/not-a-uuid');
    expect(target.statusCode).toBe(400);
    expect(ErrorReply.parse(target.json()).error.message).toBe(TARGET_TEXTS.noSuchTarget);
    const tracks = await app.inject('/tracks/not-a-uuid?offset=0');
    expect(tracks.statusCode).toBe(400);
    expect(ErrorReply.parse(tracks.json()).error.message).toBe(REQUEST_TEXTS.badAddress);
    const query = await app.inject('/tracks/6f1c1a52-3b8e-4b59-9a55-3f3b2a1e0c11?offset=x');
    expect(ErrorReply.parse(query.json()).error.message).toBe(
      'The value given for “offset” is not accepted.',
    );
  });

  it('never show a field path or a zod text in the message', async () => {
    for (const body of [{}, { name: 5, min_bpm: 1, max_bpm: 1e9 }, [], { filters: { no_explicit: 'yes' } }]) {
      const message = ErrorReply.parse((await post(body)).json()).error.message;
      expect(message, JSON.stringify(body)).not.toMatch(/^(body|params|querystring):|Invalid|expected/);
      expect(message).toMatch(/^\p{Lu}.*\.$/u);
    }
  });
});

describe('the sign-in widget’s texts', () => {
  it('are kept word for word', async () => {
    const { AUTH_TEXTS, FIELD_TEXTS, SignupBody } = await import('@pacebeat/contract');
    const signup = Fastify();
    signup.setValidatorCompiler(validatorCompiler);
    installErrorHandler(signup);
    signup.withTypeProvider<ZodTypeProvider>().post('/signup', { schema: { body: SignupBody } }, () => 'ok');
    const res = await signup.inject({
      method: 'POST',
      url: '/signup',
      payload: { email: `${'a'.repeat(300)}@example.org`, name: 'R', password: '' },
    });
    const body = ErrorReply.parse(res.json());
    expect(body.error.message).toBe(`${FIELD_TEXTS.emailTooLong}. ${AUTH_TEXTS.passwordMissing}`);
    await signup.close();
  });
});
