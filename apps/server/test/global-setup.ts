// Starts one real PostgreSQL (the embedded server) for the whole server test run, migrated,
// and hands its URL to the tests as `inject('databaseUrl')`. Tests create their own unique rows.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { createDb } from '../src/db/client.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The app's role (no superuser), as the app connects. */
    databaseUrl: string;
    /** The server's superuser, for the few tests that make databases or switch triggers off. */
    adminDatabaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacebeat-test-pg-'));
  await fs.chmod(dir, 0o755); // the postgres OS user (when we run as root) must reach the data folder
  const server = await startEmbeddedPostgres(path.join(dir, 'pg'), pino({ level: 'silent' }));
  const handle = createDb(server.url);
  await runMigrations(handle);
  // The shared database has an admin from the start, so no test's sign-up becomes the first admin by
  // chance (issue 33: the first account of an installation without an admin becomes it at a loopback
  // address). Tests of the first admin make a fresh database of their own (first-admin.test.ts).
  await handle.pool.query(
    `insert into users (email, name, is_admin) values ('seed-admin@pacebeat.test', 'Seed admin', true)`,
  );
  await handle.close();
  project.provide('databaseUrl', server.url);
  project.provide('adminDatabaseUrl', server.adminUrl);
  return async () => {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  };
}
