// The one test command (`npm test`): static checks, unit and database tests, the production build,
// then the browser tests in Chromium against that build served by the real server.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { ensureChromium } from './find-chromium.ts';

const steps: [string, string[]][] = [
  ['lint', ['run', 'lint']],
  ['typecheck', ['run', 'typecheck']],
  [
    'unit and database tests (Vitest)',
    [
      'run',
      'test:unit',
      '--',
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=.cache/vitest.json',
    ],
  ],
  ['production build', ['run', 'build']],
  ['browser tests (Playwright, Chromium)', ['run', 'test:e2e']],
];

// Machine-readable results of both runners, summed into one closing line.
const VITEST_JSON = '.cache/vitest.json';
const PLAYWRIGHT_JSON = '.cache/playwright.json';
mkdirSync('.cache', { recursive: true });
for (const f of [VITEST_JSON, PLAYWRIGHT_JSON]) rmSync(f, { force: true });
process.env.PLAYWRIGHT_JSON_OUTPUT_NAME = PLAYWRIGHT_JSON;

const chromium = await ensureChromium();
process.env.CHROMIUM_PATH = chromium;
console.log(`Chromium: ${chromium}`);

const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
const results: { name: string; ok: boolean; seconds: number }[] = [];
for (const [name, args] of steps) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const res = spawnSync(npm[0]!, [...npm.slice(1), ...args], { stdio: 'inherit', env: process.env });
  results.push({ name, ok: res.status === 0, seconds: (Date.now() - started) / 1000 });
  if (res.status !== 0) break;
}
console.log('\n=== summary ===');
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds.toFixed(1)} s)`);
const failed = results.some((r) => !r.ok) || results.length < steps.length;

const readJson = (f: string) => (existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : undefined);
const vitest = readJson(VITEST_JSON);
const playwright = readJson(PLAYWRIGHT_JSON);
const passed =
  (vitest?.numPassedTests ?? 0) + (playwright?.stats?.expected ?? 0) + (playwright?.stats?.flaky ?? 0);
const failedCount = (vitest?.numFailedTests ?? 0) + (playwright?.stats?.unexpected ?? 0);
const skipped =
  (vitest?.numPendingTests ?? 0) + (vitest?.numTodoTests ?? 0) + (playwright?.stats?.skipped ?? 0);
console.log(`tests: ${passed} passed, ${failedCount} failed, ${skipped} skipped`);
process.exit(failed ? 1 : 0);
