// Starts the real Firebase Auth emulator (firebase-tools, no Java) for tests, on free ports, in a temp folder.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIREBASE_BIN = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../node_modules/.bin/firebase',
);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

const START_MS = 180_000;
export interface AuthEmulator {
  host: string;
  projectId: string;
  /** Calls the emulator's REST API (Identity Toolkit paths), as `owner` when `admin`. */
  rest(
    pathAndQuery: string,
    body?: object,
    opts?: { admin?: boolean; method?: string },
  ): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

export async function startAuthEmulator(projectId = 'demo-pacebeat-test'): Promise<AuthEmulator> {
  const [port, hub, logging] = [await freePort(), await freePort(), await freePort()];
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacebeat-fb-emu-'));
  await fs.writeFile(
    path.join(dir, 'firebase.json'),
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port },
        hub: { host: '127.0.0.1', port: hub },
        logging: { host: '127.0.0.1', port: logging },
        ui: { enabled: false },
      },
    }),
  );
  const child = spawn(FIREBASE_BIN, ['emulators:start', '--only', 'auth', '--project', projectId], {
    cwd: dir,
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' },
  });
  const host = `127.0.0.1:${port}`;
  // firebase-tools loads a large program: seconds to start on quiet cores, over a minute on busy ones.
  const deadline = Date.now() + START_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`firebase emulator exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://${host}/emulator/v1/projects/${projectId}/config`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      // Not left running (it would slow every later test of the run).
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
      throw new Error(`firebase emulator did not start within ${START_MS / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    host,
    projectId,
    async rest(pathAndQuery, body, opts = {}) {
      const res = await fetch(`http://${host}/${pathAndQuery}`, {
        method: opts.method ?? (body ? 'POST' : 'GET'),
        headers: {
          'content-type': 'application/json',
          ...(opts.admin ? { authorization: 'Bearer owner' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (!res.ok) throw new Error(`emulator ${pathAndQuery}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    },
    async stop() {
      if (child.exitCode === null && child.pid) {
        const exited = new Promise((r) => child.once('exit', r));
        process.kill(-child.pid, 'SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      }
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
