import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Sized for a loaded 2-core machine (issue 25): a page test that takes 4 s alone took over Vitest's
    // default 5 s beside other work. A test that hangs still fails, after 20 s.
    testTimeout: 20_000,
  },
});
