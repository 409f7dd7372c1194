import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Lazy pages load their chunk on first use: on a busy machine that can take over the default 1 s, and
// beside the browser tests on 2 busy cores over 5 s. An element that never comes still fails.
configure({ asyncUtilTimeout: 10_000 });

// Testing Library cleans up by itself only with Vitest globals, which this project does not use.
afterEach(() => {
  cleanup();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
