import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'sandbox',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // The machine is shared (2 cores): HTTP-heavy tests get room under load.
    testTimeout: 30_000,
  },
});
