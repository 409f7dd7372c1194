// `npm test` clears what killed browser-test runs leave (scripts/test-leftovers.ts): a PostgreSQL whose
// Pacebeat is gone is stopped and its folder removed; a folder whose Pacebeat still runs is left alone.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clearTestLeftovers } from '../../../scripts/test-leftovers.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pacebeat-leftovers-'));
const children: Array<ReturnType<typeof spawn>> = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const startOf = (pid: number) => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19]!;

/** A run's folder: `pg/postmaster.pid` naming a stand-in server process, `pg.owner` naming `owner`. */
function runFolder(name: string, owner: { pid: number; start?: string }) {
  const dir = path.join(tmp, name);
  fs.mkdirSync(path.join(dir, 'pg'), { recursive: true });
  const server = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
  children.push(server);
  fs.writeFileSync(path.join(dir, 'pg', 'postmaster.pid'), `${server.pid}\n${dir}/pg\n`);
  fs.writeFileSync(path.join(dir, 'pg.owner'), `${owner.pid}${owner.start ? ` ${owner.start}` : ''}\n`);
  return { dir, server: server.pid! };
}

describe.skipIf(os.platform() !== 'linux')('clearing what killed test runs left', () => {
  it('stops the server of a run whose Pacebeat is gone and removes its folder; a live run’s stays', async () => {
    const dead = spawn('true');
    await new Promise((r) => dead.on('close', r));
    const killed = runFolder('pacebeat-e2e-killed', { pid: dead.pid!, start: '1' });
    const live = runFolder('pacebeat-e2e-live', { pid: process.pid, start: startOf(process.pid) });
    const other = path.join(tmp, 'pacebeat-test-pg-other');
    fs.mkdirSync(other);

    expect(await clearTestLeftovers(tmp)).toEqual({ stopped: 1, removed: 1 });
    for (let i = 0; i < 50 && alive(killed.server); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(killed.server)).toBe(false);
    expect(fs.existsSync(killed.dir)).toBe(false);
    expect(alive(live.server)).toBe(true);
    expect(fs.existsSync(live.dir)).toBe(true);
    expect(fs.existsSync(other)).toBe(true); // not a browser-test run's folder
  });
});
