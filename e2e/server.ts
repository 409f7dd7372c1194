// The real server as every browser-test run starts it (playwright.config.ts, and the Firebase and setup
// runs' configs): a fresh data folder, its own port, quiet logs, and no transient failures in the
// simulated world (a browser test must not fail by chance). Each run adds its own settings.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A fresh data folder the postgres OS user can reach (it runs as that user when the tests run as root),
 * one per run: Playwright loads the config in each worker too, and the workers inherit the runner's
 * environment, where the first load keeps it (else every worker left an empty folder behind). `npm test`
 * removes it after the run (scripts/test-leftovers.ts).
 */
export function freshDataDir(prefix: string): string {
  const key = `PACEBEAT_E2E_DATA_DIR_${prefix.replace(/\W/g, '_').toUpperCase()}`;
  const known = process.env[key];
  if (known && fs.existsSync(known)) return known;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  process.env[key] = dir;
  return dir;
}

/**
 * The port of the simulated world a server on `port` runs in-process (DEMO_SANDBOX_PORT): the tests drive
 * its admin API there. Runners' browsers never go there: they reach its consent page through the app.
 */
export const sandboxPortOf = (port: number) => port + 1000;

/**
 * The admin token of that world (DEMO_SANDBOX_ADMIN_TOKEN; without it the server would make a random one
 * the tests could not know): random per run, made once where the config is first read, in Playwright's
 * main process, whose environment its workers inherit, so every process of the run agrees on it.
 */
export const SANDBOX_ADMIN_TOKEN = (process.env['E2E_SANDBOX_ADMIN_TOKEN'] ??=
  randomBytes(18).toString('base64url'));

/** The headers of every call to that admin API. */
export const sandboxAdminHeaders = { authorization: `Bearer ${SANDBOX_ADMIN_TOKEN}` };

/** Playwright's `webServer` entry for `node apps/server/src/app/main.ts all` on `port`. */
export function pacebeatServer(port: number, dataDir: string, env: Record<string, string>) {
  return {
    command: 'node apps/server/src/app/main.ts all',
    url: `http://127.0.0.1:${port}/readyz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    // Past the server's own 30 s to finish requests and jobs and stop its PostgreSQL: a SIGKILL before
    // that left the database running.
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 45_000 },
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEMO_TRANSIENT_FAILURES: '0',
      DEMO_SANDBOX_PORT: String(sandboxPortOf(port)),
      DEMO_SANDBOX_ADMIN_TOKEN: SANDBOX_ADMIN_TOKEN,
      ...env,
    },
  };
}
