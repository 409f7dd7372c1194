// `--commit REV`: run the product of one commit, whatever the working tree holds (others may be editing
// it): `git archive` of that commit into a folder, the installed node_modules linked in (the workspace
// packages pointing into the folder), and this benchmark's own files copied over (the instrument, so an
// older product can be measured with the same bench). The benchmark then runs again inside it.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PREVIEW_DISK_CACHE } from '../shared/preview-cache.ts';

const WORKSPACES: Record<string, string> = {
  bench: 'bench',
  contract: 'packages/contract',
  sandbox: 'tools/sandbox',
  server: 'apps/server',
  web: 'apps/web',
};

export function commitOf(repoRoot: string, rev: string): string {
  return execFileSync('git', ['rev-parse', '--verify', `${rev}^{commit}`], {
    cwd: repoRoot,
    encoding: 'utf8',
  }).trim();
}

/** The working tree's commit, with "+ uncommitted changes" when files differ from it. */
export function describeTree(repoRoot: string): string {
  const sha = commitOf(repoRoot, 'HEAD');
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
    cwd: repoRoot,
    encoding: 'utf8',
  }).trim();
  return dirty ? `${sha.slice(0, 12)} + uncommitted changes of the working tree` : sha.slice(0, 12);
}

/**
 * The folder of commit `sha`; with `worldSha`, its simulated world (`tools/sandbox`) is that commit's
 * instead (an older product against today's world: the same world for a before-and-after comparison).
 */
export function makeSnapshot(repoRoot: string, sha: string, worldSha?: string): string {
  const name = `${sha.slice(0, 12)}${worldSha ? `-world-${worldSha.slice(0, 12)}` : ''}`;
  const dir = path.join(os.tmpdir(), `pacebeat-lifecycle-src-${name}`);
  if (!fs.existsSync(path.join(dir, '.complete'))) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C '${dir}'`], { cwd: repoRoot });
    if (worldSha) {
      fs.rmSync(path.join(dir, 'tools/sandbox'), { recursive: true, force: true });
      execFileSync('sh', ['-c', `git archive ${worldSha} tools/sandbox | tar -x -C '${dir}'`], {
        cwd: repoRoot,
      });
    }
    const nm = path.join(dir, 'node_modules');
    fs.mkdirSync(path.join(nm, '@pacebeat'), { recursive: true });
    for (const e of fs.readdirSync(path.join(repoRoot, 'node_modules'))) {
      if (e === '@pacebeat') continue;
      fs.symlinkSync(path.join(repoRoot, 'node_modules', e), path.join(nm, e));
    }
    for (const [name, rel] of Object.entries(WORKSPACES))
      fs.symlinkSync(path.join('..', '..', rel), path.join(nm, '@pacebeat', name));
    const serverModules = path.join(repoRoot, 'apps/server/node_modules');
    if (fs.existsSync(serverModules))
      fs.symlinkSync(serverModules, path.join(dir, 'apps/server/node_modules'));
    fs.writeFileSync(path.join(dir, '.complete'), name);
  }
  // The instrument: this benchmark as it is now.
  fs.cpSync(path.join(repoRoot, 'bench/lifecycle'), path.join(dir, 'bench/lifecycle'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'bench/shared'), { recursive: true });
  fs.cpSync(
    path.join(repoRoot, 'bench/shared/preview-cache.ts'),
    path.join(dir, 'bench/shared/preview-cache.ts'),
  );
  return dir;
}

/** Runs the benchmark again inside the snapshot; resolves with its exit code. */
export function runInSnapshot(dir: string, label: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(dir, 'bench/lifecycle/run.ts'), ...args], {
      cwd: dir,
      stdio: 'inherit',
      env: {
        ...process.env,
        LIFECYCLE_SNAPSHOT: dir,
        LIFECYCLE_COMMIT: label,
        LIFECYCLE_ARGS: process.argv.slice(2).join(' '),
        // One preview cache for every commit measured: this checkout's.
        LIFECYCLE_PREVIEW_CACHE: PREVIEW_DISK_CACHE,
      },
    });
    const forward = (s: NodeJS.Signals) => child.kill(s);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
