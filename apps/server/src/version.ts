// Which Pacebeat this is, for /readyz and the backups' description: the release (the root package.json's
// semantic version, which the tags v<version>, the image tag and CHANGELOG.md use) and the commit it was built
// from. The spec's own version string ("0.6-3", APP_VERSION in the contract) is another thing: the web app
// shows that one.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface BuildInfo {
  /** The release, e.g. `0.7.0`. */
  version: string;
  /** The git commit, or `unknown`. */
  commit: string;
}

/**
 * The commit: PACEBEAT_COMMIT (the image sets it from its build argument; the image has no .git), else
 * that of the checkout the server runs from, else `unknown`.
 */
export function readCommit(env: NodeJS.ProcessEnv = process.env, cwd = repoRoot): string {
  const given = env.PACEBEAT_COMMIT?.trim();
  if (given) return given;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    }).trim();
  } catch {
    return 'unknown';
  }
}

let release: string | undefined;
let cached: BuildInfo | undefined;

/** The release, e.g. `0.7.0` (read once). */
export function releaseVersion(): string {
  release ??= (
    JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }
  ).version;
  return release;
}

/** This process's release and commit (read once). */
export function buildInfo(): BuildInfo {
  cached ??= { version: releaseVersion(), commit: readCommit() };
  return cached;
}
