import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorReply } from '@pacebeat/contract';
import { AppError } from './errors.ts';
import { redactUrl } from '../log.ts';

function send(reply: FastifyReply, request: FastifyRequest, status: number, code: string, message: string) {
  const body: ErrorReply = { error: { code, message }, error_name: code, requestId: String(request.id) };
  return reply.status(status).send(body);
}

/** One envelope for every error; 4xx say what was wrong, 5xx say nothing of the internals. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      return send(reply, request, err.statusCode, err.code, err.message);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext ?? 'request';
      const detail = err.validation
        .map((v) => {
          const field = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
          return field ? `${field}: ${v.message}` : v.message;
        })
        .join('; ');
      return send(reply, request, 400, 'ValidationError', `${where}: ${detail}`);
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause.issues }, 'reply did not match its schema');
      return send(reply, request, 500, 'InternalError', 'Internal Server Error');
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: bad JSON, body too large, wrong content type.
      return send(reply, request, status, err.code ?? 'BadRequest', err.message);
    }
    request.log.error({ err, url: redactUrl(request.url), method: request.method }, 'unhandled error');
    return send(reply, request, 500, 'InternalError', 'Internal Server Error');
  });
}
