import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { connectThroughConsent, newSpotifyUser, scrollsSideways, signUpByApi } from './support.ts';

// A runner's tracks on the demo world, at a phone's width (360 px): a target's page
// from the status page, a tempo fixed by tapping (at a steady beat on the page's clock) that moves the track
// to another target, an artist excluded and restored.

interface ApiTarget {
  target_id: string;
  bpms: { min: number };
  stats?: { tracks_added: number };
}
const targetsOf = async (page: Page) =>
  ((await (await page.request.get('/api/spotify/targets')).json()) as { data: { targets: ApiTarget[] } }).data
    .targets;

/** From / to a target's page through its "Tracks added" link. */
async function openTarget(page: Page, min: number) {
  await page.goto('/');
  const link = page.getByRole('link', {
    name: new RegExp(`tracks added to Pacebeat ${min}–${min + 10} BPM`),
  });
  await link.click();
  await expect(page).toHaveURL(/\/targets\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: `Pacebeat ${min}–${min + 10} BPM` })).toBeVisible();
  await expect(page).toHaveTitle('Target tracks · Pacebeat');
}

test.use({ viewport: { width: 360, height: 780 } });

test('fix a tempo by tapping and watch the track move; exclude an artist and restore it; all at 360 px', async ({
  page,
}) => {
  test.setTimeout(330_000);
  await page.clock.install(); // time flows as usual until the taps pause it
  await signUpByApi(page);
  await connectThroughConsent(page, await newSpotifyUser(page, { liked: 200 }));
  await page.getByRole('button', { name: 'Proceed' }).click();
  await expect(page).toHaveURL(/\/$/);
  // The writer places the first tracks in 170–180 (checked tempos: as long as the status page's test allows).
  await expect
    .poll(async () => (await targetsOf(page)).find((t) => t.bpms.min === 170)?.stats?.tracks_added ?? 0, {
      timeout: 200_000,
    })
    .toBeGreaterThan(0);

  await openTarget(page, 170);
  const rows = page.getByTestId('track-row');
  await expect(rows.first()).toBeVisible();
  expect(await scrollsSideways(page)).toBe(false);
  await page.screenshot({ path: test.info().outputPath('target-360.png') });
  const first = rows.first();
  const title = (await first.getByRole('link').nth(1).textContent())!;
  await expect(first.getByTestId('track-tempo')).toContainText(
    /BPM.* from (ReccoBeats|Deezer|GetSongBPM|Spotify|Pacebeat’s estimator)/,
  );

  // Tap 155 BPM: eight taps 387 ms apart on the page's own clock.
  await first.getByRole('button', { name: 'Fix tempo' }).click();
  const dialog = page.getByRole('dialog', { name: `Fix the tempo of “${title}”` });
  await expect(dialog).toBeVisible();
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  const tap = dialog.getByRole('button', { name: 'Tap', exact: true });
  for (let i = 0; i < 8; i++) {
    await tap.click();
    await page.clock.runFor(387);
  }
  await expect(dialog.getByTestId('tap-result')).toHaveText('Tapped: 155 BPM (8 taps)');
  await expect(dialog.getByLabel('BPM')).toHaveValue('155');
  await page.clock.resume();
  await page.screenshot({ path: test.info().outputPath('tap-dialog-360.png') });
  const axe = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await dialog.getByRole('button', { name: 'Save tempo' }).click();
  await expect(dialog).toBeHidden();

  // It moves: placed in 150–160 within a writer run, with the runner's tempo.
  await openTarget(page, 150);
  const moved = page.getByTestId('track-row').filter({ hasText: title }).first();
  await expect(async () => {
    await page.reload();
    await expect(moved).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  // The runner's own tempo leads the row.
  await expect(moved.getByTestId('track-tempo')).toContainText('Your tempo: 155 BPM');
  expect(await scrollsSideways(page)).toBe(false);
  // The same page on a desktop, for a look.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: test.info().outputPath('target-desktop.png') });
  await page.setViewportSize({ width: 360, height: 780 });

  // Exclude its (first) artist: the row says so; the Excluded list has it; restored, it is gone from there.
  await moved.getByRole('button', { name: 'Exclude…' }).click();
  const artistItem = page.getByRole('menuitem', { name: /^Artist: / }).first();
  const artist = (await artistItem.textContent())!.replace(/^Artist: /, '');
  await artistItem.click();
  const confirm = page.getByRole('dialog', { name: `Exclude the artist “${artist}”?` });
  await confirm.getByRole('button', { name: 'Exclude' }).click();
  await expect(confirm).toBeHidden();
  await expect(moved.getByText('Excluded (artist) since it was added')).toBeVisible();

  await page.getByRole('link', { name: 'Excluded tracks and artists' }).click();
  await expect(page).toHaveURL(/\/excluded$/);
  const excluded = page.getByRole('list', { name: 'Excluded' });
  await expect(excluded.getByText(artist, { exact: true })).toBeVisible();
  expect(await scrollsSideways(page)).toBe(false);
  await page.screenshot({ path: test.info().outputPath('excluded-360.png'), fullPage: true });
  await excluded.getByRole('button', { name: `Restore ${artist}` }).click();
  await expect(page.getByText('Nothing is excluded.', { exact: false })).toBeVisible();
});

test('a target that is not the runner’s answers "No such target playlist."', async ({ page }) => {
  await signUpByApi(page);
  await page.goto('/targets/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText('No such target playlist.')).toBeVisible();
});
