import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderApp, visitorApi } from '../../test/render-app.tsx';

describe('AppFooter', () => {
  it.each(['/', '/about', '/ping'])('shows the version and the build hash on %s', async (path) => {
    vi.stubEnv('VITE_BUILD_HASH', 'abc1234');
    renderApp(path, visitorApi);
    const footer = await screen.findByRole('contentinfo');
    expect(footer.textContent).toContain('v0.6-3 · build abc1234');
  });

  it('says "unknown" when the build has no hash', async () => {
    vi.stubEnv('VITE_BUILD_HASH', '');
    renderApp('/about', visitorApi);
    expect((await screen.findByRole('contentinfo')).textContent).toContain('v0.6-3 · build unknown');
  });
});
