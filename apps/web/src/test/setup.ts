import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Lazy pages load their chunk on first use: on a busy machine that can take over the default 1 s.
configure({ asyncUtilTimeout: 5_000 });

// Testing Library cleans up by itself only with Vitest globals, which this project does not use.
afterEach(() => {
  cleanup();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
