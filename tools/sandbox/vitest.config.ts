import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'sandbox',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // The machine is shared (2 cores): HTTP-heavy tests get room under load (search's fuzzy matching, 4 s
    // alone, took over 30 s at a load average of 15).
    testTimeout: 60_000,
  },
});
