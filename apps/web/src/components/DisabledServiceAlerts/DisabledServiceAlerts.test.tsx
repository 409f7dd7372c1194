import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SPOTIFY_TEXTS } from '../../spotify/texts.ts';
import { jsonReply, renderApp } from '../../test/render-app.tsx';

const whoami = (services: object, disabled: object[]) => () =>
  jsonReply(200, {
    data: {
      authenticated: true,
      user: { id: 'u1', email: 'runner@example.com', name: 'Runner', is_admin: false },
      services,
      disabled_services: disabled,
      sudo: null,
    },
  });

describe('disabled services and demo mode', () => {
  it('the main page shows a red alert per disabled service with the reconnect link', async () => {
    renderApp(
      '/',
      whoami({ spotify: { connected: true } }, [{ service: 'spotify', reason: 'Access was revoked' }]),
    );
    const link = await screen.findByRole('link', { name: 'reconnect to it' });
    expect(link.getAttribute('href')).toBe('/connect/spotify');
    expect(screen.getByRole('alert').textContent).toBe(
      'Service "spotify" is in disabled state in your account. Reason: Access was revoked. You may try to reconnect to it.',
    );
    expect(screen.queryByText(SPOTIFY_TEXTS.demoBanner)).toBeNull();
  });

  it('shows the Demo mode banner when the status says the service is simulated', async () => {
    renderApp('/', whoami({ spotify: { connected: true, demo: true, work_resumes_at: null } }, []));
    expect(await screen.findByText(SPOTIFY_TEXTS.demoBanner)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'reconnect to it' })).toBeNull();
  });

  it('adds one full stop to a reason that ends with its own', async () => {
    renderApp(
      '/',
      whoami({ spotify: { connected: true } }, [{ service: 'spotify', reason: 'Connect again.' }]),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Reason: Connect again. You may try');
  });

  it('says when Spotify work resumes while it is paused', async () => {
    const resumes = Math.floor(Date.UTC(2026, 10, 23, 3, 0) / 1000);
    renderApp('/', whoami({ spotify: { connected: true, demo: false, work_resumes_at: resumes } }, []));
    const notice = await screen.findByRole('status', { name: 'Spotify paused' });
    expect(notice.textContent).toContain('resume at');
    expect(notice.textContent).toContain('2026');
  });

  it('says nothing about pauses while Spotify work runs', async () => {
    renderApp('/', whoami({ spotify: { connected: true, demo: false, work_resumes_at: null } }, []));
    await screen.findByRole('button', { name: 'Account: Runner' });
    expect(screen.queryByRole('status', { name: 'Spotify paused' })).toBeNull();
  });
});
