import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace; each has its own vitest.config.ts.
// `npm run test:unit` runs three test files at a time (`--maxWorkers=3`, which reaches every project):
// Vitest's default is one worker fewer than the cores, one on a 2-core machine, so the files ran one after
// another, and most of them wait on PostgreSQL, HTTP servers and child processes rather than compute
// (issue 25). Every test makes its own rows in the shared database, so files do not see one another's.
export default defineConfig({
  test: {
    projects: ['packages/contract', 'apps/server', 'apps/web', 'tools/sandbox'],
  },
});
