import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { connectThroughConsent, newSpotifyUser, scrollsSideways, signUpByApi, WIDTHS } from './support.ts';

// Screenshots of / for a visitor and for a signed-in runner, at both widths, to look at after a change:
// `E2E_SCREENSHOTS=some/dir npx playwright test e2e/screenshots.spec.ts`. Without the variable it is
// skipped. Where the server has no targets or sources route yet, sample rows in the contract's shape
// stand in for them (the screenshot is of the page, not of the data).
const dir = process.env.E2E_SCREENSHOTS;

const now = Math.floor(Date.now() / 1000);
const progress = (over: object) => ({
  state: 'idle',
  pages_read: 0,
  pages_total: null,
  items_read: 0,
  items_total: null,
  tracks_with_tempo: 0,
  resumes_at: null,
  error: null,
  ...over,
});
const SAMPLE_TARGETS = {
  data: {
    targets: [150, 160, 170, 180].map((min, i) => ({
      target_id: `t${i}`,
      target: `Pacebeat ${min}-${min + 10} BPM`,
      public_url: i < 2 ? `https://open.spotify.com/playlist/${i}` : null,
      timestamp_last_job_finished: i < 3 ? now - 600 : null,
      timestamp_last_job_finished_str: i < 3 ? '23 Nov 2026, 16:50' : null,
      bpms: { min, max: min + 10 },
      ...(i < 3 ? { stats: { tracks_added: 120 - i * 30, tracks_added_7days: 12 - i * 4 } } : {}),
    })),
  },
};
const SAMPLE_SOURCES = {
  data: {
    sources: [
      {
        kind: 'liked_songs',
        source_id: 'liked',
        name: 'Liked Songs',
        front_tooltip: 'Every song you <b>liked</b> in Spotify.',
        enabled: true,
        can_enable: true,
        timestamp_last_job_finished: now - 900,
        timestamp_last_job_finished_str: '23 Nov 2026, 16:45',
        stats: { known_tracks: 1240 },
        progress: progress({
          state: 'scanning',
          items_read: 1240,
          items_total: 10000,
          tracks_with_tempo: 1100,
        }),
      },
      {
        kind: 'playlist',
        source_id: 'p1',
        name: 'Long Sunday runs with a very long playlist name that must wrap on a phone',
        enabled: true,
        can_enable: true,
        timestamp_last_job_finished: null,
        timestamp_last_job_finished_str: null,
        stats: {},
        progress: progress({ state: 'waiting', items_read: 50, items_total: 210, resumes_at: now + 3600 }),
      },
      {
        kind: 'playlist',
        source_id: 'p2',
        name: 'Today’s Top Hits',
        front_tooltip: 'You follow this playlist; Spotify lets this app read only playlists you own.',
        enabled: false,
        can_enable: false,
        timestamp_last_job_finished: null,
        timestamp_last_job_finished_str: null,
        stats: {},
        progress: progress({ state: 'unreadable' }),
      },
      {
        kind: 'followed_artists',
        source_id: 'artists',
        name: 'Followed artists',
        enabled: true,
        can_enable: true,
        timestamp_last_job_finished: now - 7200,
        timestamp_last_job_finished_str: '23 Nov 2026, 15:00',
        stats: { known_tracks: 312 },
        progress: progress({ state: 'failed', error: 'Spotify answered 502 three times; retrying later.' }),
      },
    ],
    summary: { tracks_known: 1552, tracks_with_tempo: 1380, tracks_without_tempo: 172 },
  },
};

async function stubMissing(page: Page, route: string, body: unknown) {
  const probe = await page.request.get(`/api/spotify/${route}`);
  if (probe.status() !== 404) return;
  await page.route(`**/api/spotify/${route}*`, (r) => r.fulfill({ json: body }));
}

for (const { name, viewport } of WIDTHS) {
  test.describe(name, () => {
    test.use({ viewport });
    test.skip(!dir, 'set E2E_SCREENSHOTS to a folder to take the screenshots');

    test('screenshots of / for a visitor and a signed-in runner', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('link', { name: 'Log in or register' })).toBeVisible();
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: path.join(dir!, `visitor-${viewport.width}.png`), fullPage: true });

      await page.goto('/login');
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      await page.screenshot({ path: path.join(dir!, `login-${viewport.width}.png`), fullPage: true });

      await signUpByApi(page);
      await page.goto('/connect/spotify');
      await expect(page.getByRole('button', { name: 'Connect to Spotify' })).toBeEnabled();
      await expect(page.getByRole('button', { name: /^Account: / })).toBeVisible();
      await expect(page.getByRole('status', { name: 'Demo mode' })).toBeVisible();
      await page.waitForTimeout(400); // the button's colour transition
      await page.screenshot({ path: path.join(dir!, `connect-${viewport.width}.png`), fullPage: true });
      await connectThroughConsent(page, await newSpotifyUser(page));
      // A connect waits up to 12 s for a free call when Spotify's window is full (CONNECT_WAIT_MAX_MS).
      await expect(page.getByText('Spotify connected successfully.')).toBeVisible({ timeout: 40_000 });
      await stubMissing(page, 'targets', SAMPLE_TARGETS);
      await stubMissing(page, 'sources', SAMPLE_SOURCES);
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Sources' })).toBeVisible();
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: path.join(dir!, `signed-in-${viewport.width}.png`), fullPage: true });
      await page.getByRole('button', { name: /^Account: / }).click();
      await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeVisible();
      await page.screenshot({ path: path.join(dir!, `menu-${viewport.width}.png`) });
    });
  });
}
