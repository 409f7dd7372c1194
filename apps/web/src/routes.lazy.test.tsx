import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, visitorApi } from './test/render-app.tsx';

afterEach(() => vi.restoreAllMocks());

// Its own file: React Router warns once per module load, so only a first lazy load can show it.
describe('a lazy route’s first load (issue 23)', () => {
  it('shows the layout at once and warns nothing ("No `HydrateFallback` element provided")', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderApp('/about', visitorApi);
    expect(screen.getByRole('banner').textContent).toContain('Pacebeat');
    expect(await screen.findByRole('heading', { level: 1, name: 'About Pacebeat' })).toBeTruthy();
    const warnings = warn.mock.calls.map((c) => c.map(String).join(' '));
    expect(warnings.filter((w) => w.includes('HydrateFallback'))).toEqual([]);
  });
});
