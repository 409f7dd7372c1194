// PostgreSQL cannot store a NUL character in text, so a NUL anywhere in a request's query or JSON body
// would surface as a database error (500). Refuse such requests up front, for every route, as 400. A lone
// surrogate (half of a UTF-16 pair, which JSON's \ud800 escapes can carry) is no text either: refused too.
import type { FastifyInstance } from 'fastify';
import { REQUEST_TEXTS } from '@pacebeat/contract';
import { badRequest } from '../errors.ts';

/** True when a string (or key) anywhere in `value` satisfies `bad` (iterative: deep JSON cannot overflow). */
function containsString(value: unknown, bad: (s: string) => boolean): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (bad(v)) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        if (bad(k)) return true;
        stack.push(item);
      }
    }
  }
  return false;
}

/** True when a string anywhere in `value` holds a NUL character. */
export const containsNul = (value: unknown) => containsString(value, (s) => s.includes('\u0000'));

/** With the `u` flag, a surrogate pair is one code point: only a lone half matches. */
const LONE_SURROGATE = /\p{Cs}/u;

/** True when a string anywhere in `value` holds a lone surrogate. */
export const containsLoneSurrogate = (value: unknown) => containsString(value, (s) => LONE_SURROGATE.test(s));

export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const parts = [request.query, request.body, request.params];
    if (parts.some(containsNul)) {
      throw badRequest('The request holds a NUL character, which no field accepts.', 'ValidationError');
    }
    if (parts.some(containsLoneSurrogate)) throw badRequest(REQUEST_TEXTS.brokenText, 'ValidationError');
  });
}
