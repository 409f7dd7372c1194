import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { freshDataDir, pacebeatServer } from './e2e/server.ts';
import baseConfig from './playwright.config.ts';

// The Firebase sign-in path in Chromium: the real server (firebase provider) against the real
// Firebase Auth emulator (firebase-tools, no Java), both started here on their own ports.
// Run: npm run build && CHROMIUM_PATH=... npx playwright test -c playwright.firebase.config.ts
const PORT = Number(process.env.E2E_FIREBASE_PORT ?? 8198);
const EMULATOR_PORT = Number(process.env.E2E_FIREBASE_EMULATOR_PORT ?? 9499);
export const FIREBASE_PROJECT = 'demo-pacebeat-e2e';
export const EMULATOR_URL = `http://127.0.0.1:${EMULATOR_PORT}`;

const dataDir = freshDataDir('pacebeat-e2e-fb-');
const emulatorDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pacebeat-e2e-fb-emu-'));
fs.writeFileSync(
  path.join(emulatorDir, 'firebase.json'),
  JSON.stringify({
    emulators: {
      auth: { host: '127.0.0.1', port: EMULATOR_PORT },
      hub: { host: '127.0.0.1', port: EMULATOR_PORT + 1 },
      logging: { host: '127.0.0.1', port: EMULATOR_PORT + 2 },
      ui: { enabled: false },
    },
  }),
);
const firebaseBin = path.resolve('node_modules/.bin/firebase');

export default defineConfig({
  ...baseConfig,
  // Its own output folder: npm test runs this beside the setup browser test (see playwright.setup.config.ts).
  outputDir: 'test-results/firebase',
  testDir: 'e2e/firebase',
  testMatch: '**/*.fb.ts',
  workers: 1,
  timeout: 60_000,
  use: { ...baseConfig.use, baseURL: `http://127.0.0.1:${PORT}` },
  webServer: [
    {
      command: `${firebaseBin} emulators:start --only auth --project ${FIREBASE_PROJECT}`,
      cwd: emulatorDir,
      url: `${EMULATOR_URL}/emulator/v1/projects/${FIREBASE_PROJECT}/config`,
      reuseExistingServer: false,
      timeout: 90_000,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    },
    pacebeatServer(PORT, dataDir, {
      FIREBASE_PROJECT_ID: FIREBASE_PROJECT,
      FIREBASE_WEB_CONFIG: JSON.stringify({
        apiKey: 'fake-api-key',
        authDomain: '127.0.0.1',
        projectId: FIREBASE_PROJECT,
      }),
      FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${EMULATOR_PORT}`,
    }),
  ],
});
