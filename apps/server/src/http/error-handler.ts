import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AUTH_TEXTS, FIELD_TEXTS, REQUEST_TEXTS, type ErrorReply } from '@pacebeat/contract';
import { AppError } from '../errors.ts';
import { redactUrl } from '../log.ts';

type FieldRefusal = NonNullable<ErrorReply['error']['fields']>[number];

function send(
  reply: FastifyReply,
  request: FastifyRequest,
  status: number,
  code: string,
  message: string,
  fields?: FieldRefusal[],
) {
  const body: ErrorReply = {
    error: { code, message, ...(fields ? { fields } : {}) },
    error_name: code,
    requestId: String(request.id),
  };
  return reply.status(status).send(body);
}

/**
 * A validation issue as a sentence for people. The contract's own messages are sentences already (they
 * end with a full stop); zod's defaults ("Invalid UUID", "Too big: expected …") are for developers, so
 * they become a plain sentence that names the field, or, in an address, says the link is broken.
 */
const WIDGET_TEXTS: ReadonlySet<string> = new Set([
  ...Object.values(AUTH_TEXTS),
  ...Object.values(FIELD_TEXTS),
]);

export function refusalSentence(where: string, field: string, message: string): string {
  // The sign-in widget's texts (spec §5) come without a full stop, word for word.
  if (WIDGET_TEXTS.has(message) || /^\p{Lu}.*\.$/u.test(message.trim())) return message.trim();
  if (where === 'params') return REQUEST_TEXTS.badAddress;
  if (field) return `The value given for “${field}” is not accepted.`;
  return REQUEST_TEXTS.badRequest;
}

const DB_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);

/** True when `err` (or one of its causes) says the database cannot be reached right now. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && DB_DOWN_CODES.has(code)) return true;
    if (
      /Connection terminated|connect ECONNREFUSED|the database system is (starting up|shutting down)|timeout exceeded when trying to connect/.test(
        e.message,
      )
    )
      return true;
  }
  return false;
}

/** What a request target with an escape no decoder can read is told (`%zz`, `%`, a cut UTF-8 sequence). */
export const BAD_ESCAPE_TEXT =
  'The address holds a malformed percent escape (a % not followed by two hex digits, or not UTF-8).';

/**
 * Fastify's own refusals, made before any route or hook runs (its `frameworkErrors` option): a path whose
 * percent escapes cannot be decoded (FST_ERR_BAD_URL, 400), a parameter too long (414). Without this they
 * answer in Fastify's shape, without the app's headers; here, in the one envelope, as a client mistake.
 */
export function frameworkErrorReply(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  const message = err.code === 'FST_ERR_BAD_URL' ? BAD_ESCAPE_TEXT : REQUEST_TEXTS.badRequest;
  return send(reply, request, status, 'BadRequest', message);
}

/** One envelope for every error; 4xx say what was wrong, 5xx say nothing of the internals. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      return send(reply, request, err.statusCode, err.code, err.message);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      // The message is the sentences alone; the field paths go beside them, for the form to place.
      const where = err.validationContext ?? 'body';
      const fields = err.validation.map((v) => {
        const field = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
        return { field, message: refusalSentence(where, field, v.message ?? '') };
      });
      const message = [...new Set(fields.map((f) => f.message))].reduce(
        (all, text) => `${all}${/[.!?]$/.test(all) ? '' : '.'} ${text}`,
      );
      return send(reply, request, 400, 'ValidationError', message, fields);
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
    if (isDatabaseUnavailable(err)) {
      // Not a bug but an outage: say so, and let clients and proxies retry (/readyz says 503 too).
      request.log.error({ err, url: redactUrl(request.url) }, 'database unreachable');
      reply.header('Retry-After', '5');
      return send(
        reply,
        request,
        503,
        'DatabaseUnavailable',
        'The database is not reachable. Try again in a moment.',
      );
    }
    request.log.error({ err, url: redactUrl(request.url), method: request.method }, 'unhandled error');
    return send(reply, request, 500, 'InternalError', 'Internal Server Error');
  });
}
