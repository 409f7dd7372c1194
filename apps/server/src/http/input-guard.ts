// PostgreSQL cannot store a NUL character in text, so a NUL anywhere in a request's query or JSON body
// would surface as a database error (500). Refuse such requests up front, for every route, as 400.
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';

/** True when a string anywhere in `value` holds a NUL character (iterative: deep JSON cannot overflow). */
export function containsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        if (k.includes('\u0000')) return true;
        stack.push(item);
      }
    }
  }
  return false;
}

export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.query) || containsNul(request.body) || containsNul(request.params)) {
      throw badRequest('The request holds a NUL character, which no field accepts.', 'ValidationError');
    }
  });
}
