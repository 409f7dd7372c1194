import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace; each has its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/contract', 'apps/server', 'apps/web', 'tools/sandbox'],
  },
});
