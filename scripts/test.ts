// The one test command (`npm test`): static checks, unit and database tests, the production build,
// then the browser tests in Chromium against that build served by the real server.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import { ensureChromium } from './find-chromium.ts';
import { clearTestLeftovers } from './test-leftovers.ts';

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
  /** The later steps need it to pass (the checks and the build); the test steps do not need each other. */
  gate?: boolean;
}
// Lint and typecheck run side by side (they only read); then the build, which the browser tests need. The
// unit tests and the browser tests share nothing but the machine (their own PostgreSQL, ports and data
// folders), yet they run one after the other: side by side on 2 cores of about 2 GHz the load average
// stayed at 13-16 for half an hour, and waits that take seconds alone ran out (a work process not ready in
// 60 s, a search test over 60 s, a page not drawn in 10 s: 4-6 failures a run, different ones each time).
// The cores this run may use (CPU affinity included: `taskset -c 0 npm test` has one). On 2 or more
// Vitest runs three files at a time (they mostly wait on servers) and Playwright two browsers; on one core
// lint and typecheck run one after the other too, Vitest two files at a time and Playwright one browser.
const cores = os.availableParallelism();
const roomy = cores >= 2;
const vitestWorkers = roomy ? 3 : 2;
const browserWorkers = roomy ? 2 : 1;
const lint: Step = { name: 'lint', args: ['run', 'lint'], gate: true };
const typecheck: Step = { name: 'typecheck', args: ['run', 'typecheck'], gate: true };
const build: Step = { name: 'production build', args: ['run', 'build'], gate: true };
const vitestStep: Step = {
  name: 'unit and database tests (Vitest)',
  args: [
    'exec',
    '--',
    'vitest',
    'run',
    `--maxWorkers=${vitestWorkers}`,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${VITEST_JSON}`,
  ],
};
const browserStep: Step = {
  name: 'browser tests (Playwright, Chromium)',
  args: ['run', 'test:e2e'],
  env: { PLAYWRIGHT_JSON_OUTPUT_NAME: E2E_JSON, PLAYWRIGHT_WORKERS: String(browserWorkers) },
};
const firebaseStep: Step = {
  name: 'browser tests, Firebase sign-in (Playwright + Auth emulator)',
  args: ['run', 'test:e2e:firebase'],
  env: { PLAYWRIGHT_JSON_OUTPUT_NAME: FIREBASE_E2E_JSON },
};
const setupStep: Step = {
  name: 'browser tests, setup from demo mode to a real Spotify (Playwright + a stand-in Spotify)',
  args: ['run', 'test:e2e:setup'],
  env: { PLAYWRIGHT_JSON_OUTPUT_NAME: SETUP_E2E_JSON },
};
/**
 * The stages, in order; each stage is lanes that run at the same time, each lane its steps one after
 * another. Only the static checks share the machine; every test step runs alone.
 */
type Lane = Step[];
const stages: Lane[][] = [
  ...(roomy ? [[[lint], [typecheck]]] : [[[lint]], [[typecheck]]]),
  ...[build, vitestStep, browserStep, firebaseStep, setupStep].map((step) => [[step]]),
];
const steps = stages.flat(2);
console.log(
  `${cores} ${cores === 1 ? 'core' : 'cores'}: Vitest ${vitestWorkers} files at a time, ${browserWorkers} ${browserWorkers === 1 ? 'browser' : 'browsers'}, ${roomy ? 'lint beside typecheck, then one step at a time' : 'one step at a time'}`,
);

mkdirSync(CACHE, { recursive: true });
for (const f of [VITEST_JSON, E2E_JSON, FIREBASE_E2E_JSON, SETUP_E2E_JSON]) rmSync(f, { force: true });

// What killed runs before this one left: their PostgreSQL servers and data folders.
const before = await clearTestLeftovers();
if (before.removed > 0)
  console.log(
    `cleared what earlier runs left: ${before.stopped} PostgreSQL servers, ${before.removed} data folders`,
  );

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
          status?: string;
          message?: string;
          assertionResults: { status: string; fullName: string; failureMessages: string[] }[];
        }[];
      }
    | undefined;
  for (const file of vitest?.testResults ?? []) {
    // A file whose setup failed (a beforeAll: a server that did not start) has its tests skipped, not failed.
    if (file.status === 'failed' && !file.assertionResults.some((a) => a.status === 'failed'))
      out.push(
        `vitest ${file.name.split('/').slice(-3).join('/')}: ${gist(file.message) || 'its setup failed (a beforeAll or afterAll): see "Failed Suites" in the Vitest output'}`,
      );
    for (const a of file.assertionResults)
      if (a.status === 'failed') out.push(`vitest ${a.fullName}: ${gist(a.failureMessages[0])}`);
  }
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

const results: { name: string; ok: boolean; seconds: number; gate: boolean }[] = [];
const running = new Set<ReturnType<typeof spawn>>();

// Stopped from outside (Ctrl-C, a CI time-out): the steps stop too, and what they started is cleared.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    console.log(`\n${signal}: stopping the running steps`);
    for (const child of running) child.kill('SIGTERM');
    const deadline = setTimeout(() => process.exit(130), 60_000);
    const waitAll = async () => {
      while (running.size > 0) await new Promise((r) => setTimeout(r, 200));
      await clearTestLeftovers();
      clearTimeout(deadline);
      process.exit(130);
    };
    void waitAll();
  });

/**
 * Runs one step. Alone, its output goes straight to the terminal; beside another, into its own log file,
 * printed whole when it ends, so the CI log reads one step after another.
 */
function runStep(step: Step, alone: boolean): Promise<void> {
  const started = Date.now();
  const log = `${CACHE}/${step.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.log`;
  const out = alone ? 'inherit' : openSync(log, 'w');
  if (alone) console.log(`\n=== ${step.name} ===`);
  else console.log(`started: ${step.name} (output: ${log})`);
  const child = spawn(npm[0]!, [...npm.slice(1), ...step.args], {
    stdio: ['ignore', out, out],
    env: { ...process.env, ...step.env },
  });
  running.add(child);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      running.delete(child);
      const seconds = (Date.now() - started) / 1000;
      if (!alone) {
        closeSync(out as number);
        console.log(`\n=== ${step.name} (${seconds.toFixed(1)} s) ===`);
        process.stdout.write(readFileSync(log, 'utf8'));
      }
      results.push({ name: step.name, ok: code === 0, seconds, gate: step.gate === true });
      resolve();
    });
  });
}

const runStarted = Date.now();
for (const stage of stages) {
  await Promise.all(
    stage.map(async (lane) => {
      for (const step of lane) await runStep(step, stage.length === 1);
    }),
  );
  // A failed check or build stops the run; a failed test step does not keep the others (run one after
  // another on one core) from running.
  if (results.some((r) => !r.ok && r.gate)) break;
}
printFailures();
// A failed run's servers may not have stopped their PostgreSQL; this run's folders go too.
const after = await clearTestLeftovers();
console.log('\n=== summary ===');
if (after.stopped > 0) console.log(`stopped ${after.stopped} PostgreSQL servers left running by the tests`);
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds.toFixed(1)} s)`);
console.log(`whole run: ${((Date.now() - runStarted) / 1000).toFixed(1)} s`);
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
