// With its database unreachable the API says so (503 with Retry-After), instead of a bare 500.
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, inject, it } from 'vitest';
import { testOrigins } from '../../test/accounts-app.ts';
import { createAccountsModule } from '../accounts/accounts.module.ts';
import { loadConfig } from '../app/config.ts';
import { createDb, type DbHandle } from '../db/client.ts';
import { buildApp } from '../app/http-app.ts';
import { isDatabaseUnavailable } from './error-handler.ts';

/** The HTTP app with the real accounts module on `handle`'s pool. */
async function appOn(handle: DbHandle) {
  const config = loadConfig({});
  const accounts = createAccountsModule(handle.db, {
    settings: { ...config, embedded: false },
    log: pino({ level: 'silent' }),
  });
  return buildApp(
    {
      webDistDir: path.join(os.tmpdir(), 'pacebeat-no-web-build'),
      origins: testOrigins(config),
      accounts: { accounts: accounts.accounts, sessions: accounts.sessions },
      checkReady: async () => undefined,
    },
    { loggerInstance: pino({ level: 'silent' }) },
  );
}

describe('database unreachable', () => {
  it('answers 503 DatabaseUnavailable with Retry-After', async () => {
    const handle = createDb('postgres://nobody:nothing@127.0.0.1:1/none', { max: 1 });
    const app = await appOn(handle);
    try {
      const res = await app.inject({ url: '/api/whoami', headers: { cookie: 'pacebeat_session=abc' } });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toMatchObject({ error_name: 'DatabaseUnavailable' });
    } finally {
      await app.close();
      await handle.close();
    }
  });

  it('answers 503 when every connection of the pool stays busy, instead of no answer at all', async () => {
    const handle = createDb(inject('databaseUrl'), { max: 1, waitMs: 500 });
    const busy = await handle.pool.connect(); // the pool's only connection, held as a long job would
    const app = await appOn(handle);
    try {
      const res = await app.inject({ url: '/api/whoami', headers: { cookie: 'pacebeat_session=abc' } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ error_name: 'DatabaseUnavailable' });
      // Once the connection is free again, the same request is answered as usual.
      busy.release();
      const after = await app.inject({ url: '/api/whoami', headers: { cookie: 'pacebeat_session=abc' } });
      expect(after.statusCode).toBe(200);
    } finally {
      await app.close();
      await handle.close();
    }
  });

  it('tells an outage from a bug', () => {
    expect(
      isDatabaseUnavailable(new Error('x', { cause: Object.assign(new Error('y'), { code: '57P01' }) })),
    ).toBe(true);
    expect(isDatabaseUnavailable(new TypeError('undefined is not a function'))).toBe(false);
  });
});
