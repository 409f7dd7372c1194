// The one test command (`npm test`): static checks, unit and database tests, the production build,
// then the browser tests in Chromium against that build served by the real server.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { ensureChromium } from './find-chromium.ts';

// Machine-readable results of both runners, summed into one closing line.
const CACHE = '.cache';
const VITEST_JSON = `${CACHE}/vitest.json`;
const E2E_JSON = `${CACHE}/playwright.json`;
const FIREBASE_E2E_JSON = `${CACHE}/playwright-firebase.json`;
const SETUP_E2E_JSON = `${CACHE}/playwright-setup.json`;

interface Step {
  name: string;
  args: string[];
  env?: Record<string, string>;
}
const steps: Step[] = [
  { name: 'lint', args: ['run', 'lint'] },
  { name: 'typecheck', args: ['run', 'typecheck'] },
  {
    name: 'unit and database tests (Vitest)',
    args: [
      'run',
      'test:unit',
      '--',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${VITEST_JSON}`,
    ],
  },
  { name: 'production build', args: ['run', 'build'] },
  {
    name: 'browser tests (Playwright, Chromium)',
    args: ['run', 'test:e2e'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: E2E_JSON },
  },
  {
    name: 'browser tests, Firebase sign-in (Playwright + Auth emulator)',
    args: ['run', 'test:e2e:firebase'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: FIREBASE_E2E_JSON },
  },
  {
    name: 'browser tests, setup from demo mode to a real Spotify (Playwright + a stand-in Spotify)',
    args: ['run', 'test:e2e:setup'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: SETUP_E2E_JSON },
  },
];

mkdirSync(CACHE, { recursive: true });
for (const f of [VITEST_JSON, E2E_JSON, FIREBASE_E2E_JSON, SETUP_E2E_JSON]) rmSync(f, { force: true });

const chromium = await ensureChromium();
process.env.CHROMIUM_PATH = chromium;
console.log(`Chromium: ${chromium}`);

const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
const readJson = (f: string) => (existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : undefined);

/** The first lines of an error, without colours: enough to see why, at the end of a long log. */
function gist(message: string | undefined): string {
  const lines = stripVTControlCharacters(message ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.slice(0, 4).join(' | ').slice(0, 400);
}

interface PwResult {
  status: string;
  duration: number;
  error?: { message?: string; location?: { file: string; line: number } };
}
const at = (l?: { file: string; line: number }) =>
  l ? ` at ${l.file.split('/').slice(-2).join('/')}:${l.line}` : '';
interface PwSpec {
  title: string;
  file: string;
  line: number;
  tests: { projectName?: string; status: string; results: PwResult[] }[];
}
interface PwSuite {
  title: string;
  specs?: PwSpec[];
  suites?: PwSuite[];
}

/** Each failed (or flaky) test with why, printed just before the summary so CI's tail shows it. */
function printFailures() {
  const out: string[] = [];
  const vitest = readJson(VITEST_JSON) as
    | {
        testResults?: {
          name: string;
          assertionResults: { status: string; fullName: string; failureMessages: string[] }[];
        }[];
      }
    | undefined;
  for (const file of vitest?.testResults ?? [])
    for (const a of file.assertionResults)
      if (a.status === 'failed') out.push(`vitest ${a.fullName}: ${gist(a.failureMessages[0])}`);
  const walk = (suite: PwSuite, path: string[]) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests)
        if (t.status === 'unexpected' || t.status === 'flaky')
          for (const r of t.results.filter((x) => x.status !== 'passed' && x.status !== 'skipped'))
            out.push(
              `${t.status === 'flaky' ? 'flaky' : 'FAILED'} ${spec.file}:${spec.line} ${[...path, spec.title].join(' › ')} ` +
                `(${r.status} after ${(r.duration / 1000).toFixed(1)} s${at(r.error?.location)}): ${gist(r.error?.message)}`,
            );
    for (const s of suite.suites ?? [])
      walk(s, s.title && !s.title.endsWith('.ts') ? [...path, s.title] : path);
  };
  for (const f of [E2E_JSON, FIREBASE_E2E_JSON, SETUP_E2E_JSON])
    for (const s of (readJson(f) as { suites?: PwSuite[] })?.suites ?? []) walk(s, []);
  if (out.length === 0) return;
  console.log('\n=== failures ===');
  for (const line of out) console.log(line);
}

const results: { name: string; ok: boolean; seconds: number }[] = [];
for (const step of steps) {
  console.log(`\n=== ${step.name} ===`);
  const started = Date.now();
  const res = spawnSync(npm[0]!, [...npm.slice(1), ...step.args], {
    stdio: 'inherit',
    env: { ...process.env, ...step.env },
  });
  results.push({ name: step.name, ok: res.status === 0, seconds: (Date.now() - started) / 1000 });
  if (res.status !== 0) break;
}
printFailures();
console.log('\n=== summary ===');
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds.toFixed(1)} s)`);
const failed = results.some((r) => !r.ok) || results.length < steps.length;

const vitest = readJson(VITEST_JSON);
const browser = [readJson(E2E_JSON), readJson(FIREBASE_E2E_JSON), readJson(SETUP_E2E_JSON)].map(
  (r) => r?.stats ?? {},
);
const sum = (key: string) => browser.reduce((n, s) => n + (s[key] ?? 0), 0);
const passed = (vitest?.numPassedTests ?? 0) + sum('expected') + sum('flaky');
const failedCount = (vitest?.numFailedTests ?? 0) + sum('unexpected');
const skipped = (vitest?.numPendingTests ?? 0) + (vitest?.numTodoTests ?? 0) + sum('skipped');
console.log(`tests: ${passed} passed, ${failedCount} failed, ${skipped} skipped`);
process.exit(failed ? 1 : 0);
