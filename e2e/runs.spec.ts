import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import {
  connectThroughConsent,
  newSpotifyUser,
  sandboxAdmin,
  playlistTrackIds,
  spotifyPlaylists,
  scrollsSideways,
  signUpByApi,
} from './support.ts';

// Runs on the demo world, on a phone's width: a runner makes the intervals preset, builds it, and opens
// the result; the playlist in the simulated Spotify holds exactly the songs the page shows, in order; a
// rebuild replaces them (no stray item); the page has no serious axe violation.

/** When the run was last built (unix seconds), or null. */
async function builtAt(page: Page, runId: string): Promise<number | null> {
  const res = await page.request.get(`/api/spotify/runs/${runId}`);
  return (
    ((await res.json()) as { data: { run: { build: { built_at: number } | null } } }).data.run.build
      ?.built_at ?? null
  );
}

/** The run's last build as the API gives it: its songs' track ids, in order. */
async function builtTrackIds(page: Page, runId: string): Promise<string[]> {
  const res = await page.request.get(`/api/spotify/runs/${runId}`);
  const body = (await res.json()) as {
    data: { run: { build: { songs: Array<{ track_id: string }> } | null } };
  };
  return body.data.run.build?.songs.map((s) => s.track_id) ?? [];
}

test.use({ viewport: { width: 360, height: 780 } });

test('build the intervals preset at 360 px and open the result; a rebuild replaces its songs', async ({
  page,
}) => {
  test.setTimeout(900_000);
  await signUpByApi(page);
  const user = await newSpotifyUser(page, { liked: 300 });
  await connectThroughConsent(page, user);
  await page.getByRole('button', { name: 'Proceed' }).click();
  const admin = await sandboxAdmin(page);
  // Songs with checked tempos first: the product fills its pace playlists on its own (see paces.spec.ts).
  await expect
    .poll(
      async () => (await spotifyPlaylists(page, admin, user)).some((p) => p.name === 'Pacebeat 170–180 BPM'),
      {
        timeout: 320_000,
      },
    )
    .toBe(true);

  await page.goto('/');
  await page.getByRole('link', { name: /Runs: a playlist for today/ }).click();
  await expect(page.getByRole('heading', { name: 'Your runs', level: 1 })).toBeVisible();
  await page.getByLabel('Workout').click();
  await page.getByRole('option', { name: 'Intervals' }).click();
  await page.getByLabel('Your easy cadence (steps a minute)').fill('165');
  await page.getByLabel('Name').fill('Tuesday intervals');
  await page.getByRole('button', { name: 'Make this run' }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  const runId = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { name: 'Tuesday intervals', level: 1 })).toBeVisible();
  // The plan before building: 14 parts, each with its pool.
  const timeline = page.getByRole('list', { name: "The run's timeline" });
  await expect(timeline.getByRole('heading', { level: 3 })).toHaveCount(14);
  await expect(timeline.getByText(/of your songs fits?$/).first()).toBeVisible();

  // Enough songs at the warm-up's and the fast parts' tempos before building (they keep arriving as the
  // library's tempos are found: a running tempo waits for the audio to settle its meter).
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/spotify/runs/${runId}`);
        const { segments } = ((await res.json()) as { data: { run: { segments: Array<{ pool: number }> } } })
          .data.run;
        return Math.min(segments[0]!.pool, segments[1]!.pool);
      },
      // Sized for a CI machine slower than ours beside Vitest: 2 songs after 300 s there once.
      { timeout: 420_000, intervals: [5_000] },
    )
    .toBeGreaterThanOrEqual(4);
  await page.reload();
  await page.getByRole('button', { name: 'Build' }).click();
  const open = page.getByRole('link', { name: /Open “Pacebeat run: Tuesday intervals” in Spotify/ });
  await expect(open).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(/^\d+ songs, .* against 50 min planned/)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('run-360.png'), fullPage: true });
  expect(await scrollsSideways(page)).toBe(false);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  // In Spotify, counted from outside: one playlist, exactly the build's songs in order.
  const runs = (await spotifyPlaylists(page, admin, user)).filter((p) => p.name.startsWith('Pacebeat run: '));
  expect(runs.map((p) => p.name)).toEqual(['Pacebeat run: Tuesday intervals']);
  const first = await builtTrackIds(page, runId);
  expect(first.length).toBeGreaterThan(4);
  expect(await playlistTrackIds(page, admin, runs[0]!.id)).toEqual(first);
  expect(await open.getAttribute('href')).toMatch(new RegExp(`/playlist/${runs[0]!.id}$`));
  // Spotify's web player is outside this machine: its page is stood in for, the tab's address is what counts.
  await page.context().route('https://open.spotify.com/**', (r) => r.fulfill({ body: 'Spotify' }));
  const popup = page.waitForEvent('popup');
  await open.click();
  const tab = await popup;
  await tab.waitForURL(new RegExp(`open\\.spotify\\.com/playlist/${runs[0]!.id}`));
  await tab.close();

  const firstBuiltAt = await builtAt(page, runId);
  await page.getByRole('button', { name: 'Rebuild' }).click();
  await expect.poll(async () => builtAt(page, runId), { timeout: 60_000 }).not.toBe(firstBuiltAt);
  const second = await builtTrackIds(page, runId);
  expect(await playlistTrackIds(page, admin, runs[0]!.id)).toEqual(second);
  expect(
    (await spotifyPlaylists(page, admin, user)).filter((p) => p.name.startsWith('Pacebeat run: ')),
  ).toHaveLength(1);
});
