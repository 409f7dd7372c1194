// Finds a Chromium for the browser tests: $CHROMIUM_PATH, a Playwright-managed one, or the system's.
// On a Debian-like machine where we run as root it installs Debian's `chromium` when none is found;
// elsewhere it says exactly what to install.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';

const SYSTEM_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

async function playwrightManaged(): Promise<string | undefined> {
  try {
    const { chromium } = await import('@playwright/test');
    const path = chromium.executablePath();
    return path && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

export async function findChromium(): Promise<string | undefined> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return (await playwrightManaged()) ?? SYSTEM_CANDIDATES.find((p) => existsSync(p));
}

/** Finds Chromium, installing Debian's package when that is possible here; exits with advice otherwise. */
export async function ensureChromium(): Promise<string> {
  const found = await findChromium();
  if (found) return found;
  const canApt = os.platform() === 'linux' && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (canApt) {
    console.log('No Chromium found: installing Debian’s chromium package (apt-get)…');
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    const res = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    const after = await findChromium();
    if (res.status === 0 && after) return after;
  }
  console.error(
    [
      'The browser tests need Chromium, and none was found.',
      'Install one of:',
      '  Debian/Ubuntu:  sudo apt-get install chromium   (Ubuntu: chromium-browser)',
      '  macOS:          brew install --cask chromium',
      '  any platform:   npx playwright install chromium',
      'or set CHROMIUM_PATH to a Chromium or Chrome executable.',
    ].join('\n'),
  );
  process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await ensureChromium());
}
