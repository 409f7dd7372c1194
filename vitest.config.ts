import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The files that take minutes, by their own waits (processes killed and started again, heartbeats, retry
 * delays): started first, so the other workers run everything else beside them. Without this a fresh clone
 * (no timings of an earlier run) orders files by size, and the 5-minute scale-out test, a small file, began
 * near the end and ran alone.
 */
const SLOWEST_FIRST = [
  'apps/server/test/scaleout/scaleout.faults.test.ts',
  'apps/server/test/stop-mid-work.test.ts',
  'apps/server/src/tempo/tempo.sandbox.test.ts',
  'apps/server/src/tempo/tempo.checks.sandbox.test.ts',
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOWEST_FIRST.findIndex((name) => f.moduleId.endsWith(name));
      return i < 0 ? SLOWEST_FIRST.length : i;
    };
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

// One Vitest run covers every workspace; each has its own vitest.config.ts.
// `npm run test:unit` runs three test files at a time (`--maxWorkers=3`, which reaches every project):
// Vitest's default is one worker fewer than the cores, one on a 2-core machine, so the files ran one after
// another, and most of them wait on PostgreSQL, HTTP servers and child processes rather than compute
// (issue 25). Every test makes its own rows in the shared database, so files do not see one another's.
export default defineConfig({
  test: {
    projects: ['packages/contract', 'apps/server', 'apps/web', 'tools/sandbox'],
    sequence: { sequencer: SlowestFirst },
  },
});
