import { inject } from 'vitest';
import { createDb, type DbHandle } from '../src/db/client.ts';

/** A pool on the shared test database (started by global-setup.ts). Close it in afterAll. */
export function testDb(): DbHandle {
  return createDb(inject('databaseUrl'), { max: 4 });
}
