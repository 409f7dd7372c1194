import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, visitorApi } from '../test/render-app.tsx';

describe('AboutPage', () => {
  it('shows the About text and a link back to the main page', async () => {
    const { router } = renderApp('/about', visitorApi);
    const main = await screen.findByRole('main');
    expect(main.textContent).toContain('made by a runner, for runners');
    expect(main.textContent).toContain('scans all tracks of all artists in your music library');
    expect(main.textContent).toContain('one per pace');
    expect(main.textContent).toContain('This is a beta version, so it may fail from time to time.');
    expect(main.textContent).toContain('used only to find suitable tracks');
    expect(main.textContent).toContain('When you disconnect, it is deleted.');

    const back = screen.getByRole('link', { name: 'Back to main page' });
    expect(back.getAttribute('href')).toBe('/');
    fireEvent.click(back);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
