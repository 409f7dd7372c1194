// The Pacebeat server as production runs it (the systemd unit's command: `node --max-semi-space-size=16
// scripts/server.ts all`), one process at a time, against the benchmark's PostgreSQL and simulated world.
// Stopped with SIGTERM (graceful, as `systemctl stop`) at the end of a simulated day, or SIGKILLed.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';

export interface ServerOptions {
  repoRoot: string;
  env: Record<string, string>;
  logDir: string;
  appUrl: string;
}

export interface ServerProcess {
  /** Starts it (logging to `<logDir>/server-<label>.log`) and waits until /readyz answers 200. */
  start(label: string): Promise<number>;
  /** SIGTERM and wait for the exit (graceful: in-flight requests and jobs finish). Seconds taken. */
  stop(): Promise<number>;
  /** SIGKILL and wait for the exit. */
  kill(): Promise<void>;
  running(): boolean;
  /** Exits the benchmark did not ask for (the process died on its own), with their code or signal. */
  unexpectedExits: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

export function serverProcess(o: ServerOptions): ServerProcess {
  let child: ChildProcess | undefined;
  let out: WriteStream | undefined;
  let wanted = false;
  const unexpectedExits: string[] = [];
  const alive = () => !!child && child.exitCode === null && child.signalCode === null;
  return {
    unexpectedExits,
    running: alive,
    async start(label) {
      if (alive()) throw new Error('the server is already running');
      out = createWriteStream(path.join(o.logDir, `server-${label}.log`), { flags: 'a' });
      const started = performance.now();
      const c = spawn(
        process.execPath,
        ['--max-semi-space-size=16', path.join(o.repoRoot, 'scripts/server.ts'), 'all'],
        { cwd: o.repoRoot, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = c;
      wanted = true;
      c.stdout!.pipe(out, { end: false });
      c.stderr!.pipe(out, { end: false });
      c.once('exit', (code, signal) => {
        if (wanted && child === c) unexpectedExits.push(`${label}: ${code ?? signal}`);
      });
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        if (!alive()) throw new Error(`the server exited during start (see ${out.path})`);
        try {
          const res = await fetch(`${o.appUrl}/readyz`, { signal: AbortSignal.timeout(2000) });
          if (res.status === 200) return (performance.now() - started) / 1000;
        } catch {
          // not listening yet
        }
        await sleep(250);
      }
      throw new Error(`the server was not ready within 120 s (see ${out.path})`);
    },
    async stop() {
      wanted = false;
      if (!alive()) return 0;
      const t = performance.now();
      child!.kill('SIGTERM');
      await exited(child!);
      return (performance.now() - t) / 1000;
    },
    async kill() {
      wanted = false;
      if (!alive()) return;
      child!.kill('SIGKILL');
      await exited(child!);
    },
  };
}
