import { defineConfig } from '@playwright/test';
import { freshDataDir, pacebeatServer } from './e2e/server.ts';
import baseConfig from './playwright.config.ts';

// The admin's setup path (issue 26) in Chromium: a fresh Pacebeat in demo mode goes to a real-mode Spotify
// without a restart. A second simulated world, started on its own, stands in for the real Spotify: it knows
// only the client id the test saves, and SPOTIFY_ACCOUNTS_URL / SPOTIFY_API_URL point at it (as they
// would at Spotify's own). Its own server, since the test leaves demo mode for the whole installation.
// Run: npm run build && CHROMIUM_PATH=... npx playwright test -c playwright.setup.config.ts
const PORT = Number(process.env.E2E_SETUP_PORT ?? 8197);
const SPOTIFY_PORT = Number(process.env.E2E_SETUP_SPOTIFY_PORT ?? PORT + 400);
export const REAL_SPOTIFY = `http://127.0.0.1:${SPOTIFY_PORT}`;
/** The client id "registered" in the stand-in Spotify (letters and digits, as Spotify's are). */
export const REAL_CLIENT_ID = 'e2eSetupClient0123456789abcdef01';
export const REAL_ADMIN_TOKEN = 'e2e-setup-admin-token';
export const SETUP_ADMIN_EMAIL = 'e2e-setup-admin@example.org';

const dataDir = freshDataDir('pacebeat-e2e-setup-');

export default defineConfig({
  ...baseConfig,
  // Each browser-test run has its own output folder: npm test runs this one beside the Firebase one, and
  // Playwright empties its folder as it starts (a shared one lost the other run's traces mid-test).
  outputDir: 'test-results/setup',
  // One run takes the installation out of demo mode for good: a retry would start from that state and
  // fail for another reason than the first attempt's. A failure is reported as it is.
  retries: 0,
  testDir: 'e2e/setup',
  testMatch: '**/*.setup.ts',
  workers: 1,
  timeout: 120_000,
  use: { ...baseConfig.use, baseURL: `http://127.0.0.1:${PORT}` },
  webServer: [
    {
      command: `node tools/sandbox/src/cli.ts --port ${SPOTIFY_PORT} --size tiny --client-id ${REAL_CLIENT_ID} --admin-token ${REAL_ADMIN_TOKEN} --daily-quota 0 --rate-limit 0`,
      url: `${REAL_SPOTIFY}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    pacebeatServer(PORT, dataDir, {
      ADMIN_EMAILS: SETUP_ADMIN_EMAIL,
      // Where "the real Spotify" is once a client id is saved: no SPOTIFY_CLIENT_ID, so demo mode first.
      SPOTIFY_ACCOUNTS_URL: `${REAL_SPOTIFY}/spotify/accounts`,
      SPOTIFY_API_URL: `${REAL_SPOTIFY}/spotify/api/v1`,
      // The real-mode tempo services are the stand-in world's too: nothing leaves the machine.
      DEEZER_API_URL: `${REAL_SPOTIFY}/deezer`,
      RECCOBEATS_API_URL: `${REAL_SPOTIFY}/reccobeats/v1`,
    }),
  ],
});
