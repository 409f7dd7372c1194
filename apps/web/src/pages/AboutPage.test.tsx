import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PRIVACY_URL, TERMS_URL } from '../components/TermsAndPrivacy/TermsAndPrivacy.tsx';
import { renderApp, visitorApi } from '../test/render-app.tsx';

describe('AboutPage', () => {
  it('shows the About text and a link back to the main page', async () => {
    const { router } = renderApp('/about', visitorApi);
    const main = await screen.findByRole('main');
    // The layout shows at once; the page's own chunk follows.
    await waitFor(() => expect(main.textContent).toContain('made by a runner, for runners'));
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

  describe('terms and privacy (the sign-in widget and the connect page link here)', () => {
    const scrollIntoView = Element.prototype.scrollIntoView;
    afterEach(() => {
      Element.prototype.scrollIntoView = scrollIntoView; // jsdom has none
    });

    it.each([
      [TERMS_URL, 'Terms of service', ['as is and without warranty', 'under Spotify']],
      [
        PRIVACY_URL,
        'Privacy policy',
        [
          'email address',
          'Spotify tokens (encrypted)',
          'track ids',
          'tempos',
          'Deezer, ReccoBeats and GetSongBPM',
        ],
      ],
    ])('%s is a section headed "%s", scrolled into view', async (url, title, phrases) => {
      const scrolled = vi.fn();
      Element.prototype.scrollIntoView = scrolled;
      renderApp(url, visitorApi);
      const section = await screen.findByRole('region', { name: title });
      expect(`/about#${section.id}`).toBe(url);
      for (const phrase of phrases) expect(section.textContent).toContain(phrase);
      await waitFor(() => expect(scrolled).toHaveBeenCalled());
      expect(scrolled.mock.contexts.at(-1)).toBe(section);
    });

    it('are not part of the About text the main page shows visitors', async () => {
      renderApp('/', visitorApi);
      await screen.findByRole('region', { name: 'About Pacebeat' });
      expect(screen.queryByRole('region', { name: 'Terms of service' })).toBeNull();
      expect(screen.queryByRole('region', { name: 'Privacy policy' })).toBeNull();
    });
  });
});
