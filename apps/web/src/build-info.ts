import { APP_VERSION } from '@pacebeat/contract/rules';

/** The git commit the app was built from, or `unknown` (e.g. built outside a git checkout). */
export function buildHash(): string {
  return import.meta.env.VITE_BUILD_HASH || 'unknown';
}

/** The version line of the footer, e.g. `v0.6-3 · build abc1234`. */
export function versionLine(): string {
  return `v${APP_VERSION} · build ${buildHash()}`;
}
