// `npm start`: builds the web app when its build is missing or older than its sources, then runs
// the server (default command `all`; pass another: `npm start -- serve`).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'apps/web/dist/index.html');
const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/contract/src'];

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const stat = statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((e) => newestMtime(path.join(p, e))));
}

const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
if (Math.max(...sources.map((s) => newestMtime(path.join(root, s)))) > builtAt) {
  console.log('Building the web app…');
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const res = spawnSync(npm[0]!, [...npm.slice(1), 'run', 'build'], { stdio: 'inherit', cwd: root });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

// The server, with Node's compile cache (scripts/server.ts), in this same process.
await import('./server.ts');
