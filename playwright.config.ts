import { defineConfig } from '@playwright/test';
import { freshDataDir, pacebeatServer } from './e2e/server.ts';

// Browser tests run against the production build served by the real server, on a fresh data folder.
const PORT = Number(process.env.E2E_PORT ?? 8199);
const dataDir = freshDataDir('pacebeat-e2e-');
// The admin tests grant admin with `npm run admin` on this folder (e2e/support.ts grantAdmin).
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: 'e2e',
  // Apart from the Firebase and setup runs' folders (test-results/firebase, test-results/setup).
  outputDir: 'test-results/browser',
  fullyParallel: true,
  // npm test sets PLAYWRIGHT_WORKERS from the cores it may use (scripts/test.ts): 2, or 1 on one core.
  workers: Number(process.env.PLAYWRIGHT_WORKERS ?? 2),
  // One retry: the long demo-world tests share one server with every other test's demo user, so a busy
  // machine can stretch a wait past its limit. A test that passes only on its retry is reported as flaky,
  // with its first failure, in npm test's "failures" section; one that fails twice fails the run.
  retries: 1,
  // npm test sets PLAYWRIGHT_JSON_OUTPUT_NAME to sum the results into one closing line.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  // Sized for a slow machine: on 2 cores about half as fast as the usual ones, five tests failed their first
  // try in one CI run (a redirect or a heading 10-15 s late, a connect 26 s), all passing on the retry.
  timeout: 60_000,
  // An element's wait, sized for a loaded machine (issue 25): npm test runs the browser tests beside Vitest,
  // and on 2 busy cores a page's answer took longer than Playwright's default 5 s (and on the slow machine
  // above, than 10 s). A missing element still fails, after 20 s.
  expect: { timeout: 20_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || undefined,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: pacebeatServer(PORT, dataDir, {
    // The admin of the sudo tests (e2e/support.ts): without mail no address is verified, so ADMIN_EMAILS
    // grants nothing (issue 33) and support.ts grants it with `npm run admin`. (Whichever test signs up
    // first becomes the admin too: the server answers at 127.0.0.1 only.)
    ADMIN_EMAILS: 'e2e-admin@example.org',
    // Every test signs up from 127.0.0.1: the per-address limits are tested in the server's own tests.
    SIGNUP_MAX_PER_ADDRESS: '100000',
    LOGIN_MAX_FAILURES_PER_ADDRESS: '100000',
    CONNECT_MAX_PER_ADDRESS: '100000',
    // Every test's runner shares one installation's day, split fairly between the runners of the day
    // (issue 24): ~50 runners in 1,000 calls would be 18 calls each. The simulated world follows.
    SPOTIFY_DAILY_QUOTA: '50000',
    // A target's first matches wait at most 20 s (not 2 min) for others to share their add call, so a
    // test watching all four playlists appear does not race the batching wait on a busy machine.
    PLAYLIST_ADD_WAIT_SECONDS: '20',
  }),
});
