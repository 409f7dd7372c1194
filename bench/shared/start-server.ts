// The real server (`main.ts all`, demo mode) on a fresh data folder, for the benchmarks that drive it from
// outside (a browser, HTTP). Resolves once /readyz answers; the data folder goes when the process exits.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The admin API of the simulated world a server on `port` runs in-process (DEMO_SANDBOX_PORT below). */
export const sandboxAdminUrl = (port: number) => `http://127.0.0.1:${port + 1000}/admin`;

/** That admin API's token (DEMO_SANDBOX_ADMIN_TOKEN below): random per benchmark run. */
const SANDBOX_ADMIN_TOKEN = randomBytes(18).toString('base64url');

/** The headers of every call to that admin API (it answers 401 without its token). */
export const sandboxAdminHeaders = { authorization: `Bearer ${SANDBOX_ADMIN_TOKEN}` };

export async function startServer(o: { port: number; webDist: string; tag: string }): Promise<ChildProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `pacebeat-bench-${o.tag}-`));
  fs.chmodSync(dataDir, 0o755); // the postgres OS user (when run as root) must reach it
  const child = spawn(process.execPath, [path.join(root, 'apps/server/src/app/main.ts'), 'all'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(o.port),
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: o.webDist,
      // The benchmarks drive its world's admin API; runners reach its consent page through the app.
      DEMO_SANDBOX_PORT: String(o.port + 1000),
      DEMO_SANDBOX_ADMIN_TOKEN: SANDBOX_ADMIN_TOKEN,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.once('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error('the server exited during start');
    const ok = await fetch(`http://127.0.0.1:${o.port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not become ready');
}
