import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'queries/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/no-outbound.ts'],
    // Sized for 2 busy cores (issue 25): tests of 1-4 s took over 30 s at a load average of 15. A test
    // that hangs still fails.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
