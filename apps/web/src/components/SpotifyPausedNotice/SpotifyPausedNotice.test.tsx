import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonReply, renderApp } from '../../test/render-app.tsx';
import { statusApi, whoamiReply } from '../../test/status-fixtures.ts';

const until = Math.floor(Date.UTC(2026, 10, 27, 9, 30) / 1000);

describe('the paused notice on the status page', () => {
  it('tells a runner whose share of the day is used that it is their share, and when work resumes', async () => {
    const { api } = statusApi({
      whoami: () => jsonReply(200, whoamiReply({ waits: { until, for: 'share' } })),
    });
    renderApp('/', api);
    const notice = await screen.findByRole('status', { name: 'Spotify paused' });
    expect(notice.textContent).toContain("Your share of today's Spotify calls is used");
    expect(notice.textContent).toMatch(/resume at .*27/);
    expect(notice.textContent).not.toContain('asked Pacebeat to slow down');
  });

  it('says Spotify asked to slow down when the wait is Spotify’s', async () => {
    const { api } = statusApi({
      whoami: () => jsonReply(200, whoamiReply({ waits: { until, for: 'spotify' } })),
    });
    renderApp('/', api);
    const notice = await screen.findByRole('status', { name: 'Spotify paused' });
    expect(notice.textContent).toContain('Spotify asked Pacebeat to slow down');
    expect(notice.textContent).not.toContain('share');
  });
});
