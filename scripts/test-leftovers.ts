// What a browser-test run leaves when it is killed or its server does not stop in time: the server's
// embedded PostgreSQL (its own process group, so it outlives a killed server) and the run's data folder.
// `npm test` clears them before and after a run; a folder whose Pacebeat still runs is left alone.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { stopOrphanedServer } from '../apps/server/src/db/embedded.ts';

/** The data folders of the browser-test runs (e2e/server.ts `freshDataDir`). */
const TEST_RUN_FOLDER = /^pacebeat-e2e-/;
/** A folder with no server yet may belong to a run that is starting: left alone until it is this old. */
const STARTING_RUN_MS = 30 * 60_000;

export async function clearTestLeftovers(tmp = os.tmpdir()): Promise<{ stopped: number; removed: number }> {
  const log = pino({ level: 'silent' });
  let stopped = 0;
  let removed = 0;
  for (const name of await fs.readdir(tmp).catch(() => [] as string[])) {
    if (!TEST_RUN_FOLDER.test(name)) continue;
    const dir = path.join(tmp, name);
    const pgDir = path.join(dir, 'pg');
    const stat = await fs.stat(dir).catch(() => null);
    if (!stat?.isDirectory()) continue;
    const owned = await fs.stat(`${pgDir}.owner`).then(
      () => true,
      () => false,
    );
    if (!owned && Date.now() - stat.mtimeMs < STARTING_RUN_MS) continue;
    const hadServer = await fs.stat(path.join(pgDir, 'postmaster.pid')).then(
      () => true,
      () => false,
    );
    if (!(await stopOrphanedServer(pgDir, log))) continue; // its Pacebeat still runs
    if (hadServer) stopped++;
    await fs.rm(dir, { recursive: true, force: true });
    removed++;
  }
  return { stopped, removed };
}
