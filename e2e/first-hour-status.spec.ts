import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { connectThroughConsent, newSpotifyUser, scrollsSideways, signUpByApi } from './support.ts';

// A runner's first hour on the status page: the waits say what happens (the first fill, Spotify's
// daily limit), every count says what it counts and agrees with the others, and nothing scrolls sideways.
// SHOTS_DIR=… keeps the screenshots of each state at 1280 and 360 px (else the test's output folder).

const shotsDir = () => process.env.SHOTS_DIR ?? test.info().outputDir;

/** Full-page screenshots of the page at a desktop's and a phone's width; back to the desktop after. */
async function shoot(page: Page, state: string) {
  fs.mkdirSync(shotsDir(), { recursive: true });
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: width < 600 ? 740 : 800 });
    await page.waitForTimeout(300);
    expect(await scrollsSideways(page), `${state} at ${width} px scrolls sideways`).toBe(false);
    await page.screenshot({ path: path.join(shotsDir(), `status-${state}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

interface Counts {
  summary: { tracks_known: number; tracks_with_tempo: number; tracks_without_tempo: number };
  chart: { tracks_with_tempo: number; tracks_without_tempo: number };
}
/** GET sources' summary and GET tempo_histogram, read at the same moment. */
const apiCounts = (page: Page): Promise<Counts> =>
  page.evaluate(async () => {
    const [s, c] = (await Promise.all([
      fetch('/api/spotify/sources').then((r) => r.json()),
      fetch('/api/spotify/tempo_histogram').then((r) => r.json()),
    ])) as [{ data: { summary: Counts['summary'] } }, { data: Counts['chart'] }];
    return { summary: s.data.summary, chart: c.data };
  });
const fmt = (n: number) => new Intl.NumberFormat('en-US').format(n);

test.use({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });

test('after Proceed the first fill says how far it is; then the links, counts that agree, /paces at 360 px', async ({
  page,
}) => {
  test.setTimeout(480_000);
  await signUpByApi(page);
  await connectThroughConsent(page, await newSpotifyUser(page, { liked: 300 }));
  await page.getByRole('button', { name: 'Proceed' }).click();
  await expect(page).toHaveURL(/\/$/);

  // Waiting for the first fill: a line says what happens, and how far it is.
  const firstFill = page.getByRole('status', { name: 'First playlists' });
  await expect(firstFill).toContainText('Finding songs at your paces', { timeout: 30_000 });
  await shoot(page, 'waiting-for-first-fill');

  // The first playlist link; the line goes once a playlist exists.
  const targets = page.getByRole('table', { name: 'Target playlists' });
  // On a CI machine slower than ours, beside Vitest and the other tests' runners, it came after 157 s once.
  await expect(targets.getByRole('link', { name: /^Spotify/ }).first()).toBeVisible({ timeout: 240_000 });
  await expect(firstFill).toHaveCount(0);

  // The Last update and Last scan cells keep to one line on a desktop.
  for (const table of ['Target playlists', 'Sources']) {
    const cells = page.getByRole('table', { name: table }).locator('tbody td:nth-child(3)');
    for (let i = 0; i < (await cells.count()); i++)
      await expect(cells.nth(i), table).toHaveCSS('white-space', 'nowrap');
  }
  // One time style: the tables' times (made on the server) as the browser writes its own (en-US here). Last
  // update is when the writer's last run finished ("-" before): a link and songs show while the first run
  // still goes on (CI once, on a loaded machine), so the first row with a time.
  const updated = page
    .getByRole('table', { name: 'Target playlists' })
    .locator('tbody td:nth-child(3)')
    .filter({ hasText: /\d{4}/ })
    .first();
  await expect(updated).toBeVisible({ timeout: 60_000 });
  const lastUpdate = await updated.textContent();
  expect(lastUpdate).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} (AM|PM)( UTC)?$/);
  await shoot(page, 'filled');

  // One moment, one number: the library line and the tempo chart count the same songs. Tempos keep coming,
  // so the API's two figures are read together until a moment where both replies were made at once.
  let counts: Counts | undefined;
  await expect
    .poll(
      async () => {
        counts = await apiCounts(page);
        return (
          counts.summary.tracks_with_tempo === counts.chart.tracks_with_tempo &&
          counts.summary.tracks_without_tempo === counts.chart.tracks_without_tempo
        );
      },
      { timeout: 120_000, intervals: [500] },
    )
    .toBe(true);
  expect(counts!.summary.tracks_known).toBe(
    counts!.chart.tracks_with_tempo + counts!.chart.tracks_without_tempo,
  );

  // The pages show those numbers: the status page's library line and the chart's caption on /paces.
  await expect
    .poll(
      async () => {
        await page.goto('/');
        const line = await page.getByTestId('library-summary').textContent({ timeout: 40_000 });
        const now = await apiCounts(page);
        return line?.includes(
          `${fmt(now.summary.tracks_known)} songs, ${fmt(now.summary.tracks_with_tempo)} with a known tempo`,
        );
      },
      { timeout: 120_000, intervals: [1000] },
    )
    .toBe(true);

  // A pace with a long name: /paces must not scroll sideways at 360 px (the chart's caption wraps it).
  const long = `Tempo${'Intervals'.repeat(10)}`;
  const add = await page.request.post('/api/spotify/targets', {
    data: { min_bpm: 171, max_bpm: 178, name: long },
  });
  expect(add.ok(), await add.text()).toBe(true);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/paces');
  const caption = page.getByText(/songs with a known tempo;/);
  await expect(caption).toBeVisible({ timeout: 30_000 });
  await expect(caption).toContainText(long);
  expect(await scrollsSideways(page)).toBe(false);
  // The chart's numbers are written as the status page's (thousands separators in the runner's locale).
  const now = await apiCounts(page);
  await expect
    .poll(
      async () => {
        await page.reload();
        const text = (await caption.textContent({ timeout: 40_000 })) ?? '';
        const at = await apiCounts(page);
        return text.startsWith(
          `${fmt(at.chart.tracks_with_tempo)} songs with a known tempo; ${fmt(at.chart.tracks_without_tempo)} still without`,
        );
      },
      { timeout: 90_000, intervals: [1000] },
    )
    .toBe(true);
  await page.screenshot({ path: path.join(shotsDir(), `paces-360.png`), fullPage: true });
  expect(now.chart.tracks_with_tempo).toBeGreaterThan(0);
});

test('Spotify’s daily limit: a notice near the top says what waits, why, until when, and what goes on', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signUpByApi(page);
  await connectThroughConsent(page, await newSpotifyUser(page, { liked: 30 }));
  await page.getByRole('button', { name: 'Proceed' }).click();
  await expect(page).toHaveURL(/\/$/);
  // The artist catalogs wait for tomorrow, as the scan records it when the budget's daily share is spent.
  const resumes = Math.floor(Date.now() / 1000) + 8 * 3600;
  await page.route('**/api/spotify/sources', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    for (const s of body.data.sources)
      if (s.kind === 'artist_catalogs') {
        s.enabled = true;
        s.progress = { ...s.progress, state: 'waiting', resumes_at: resumes };
      }
    await route.fulfill({ response: res, json: body });
  });
  await page.reload();
  const notice = page.getByRole('status', { name: 'Spotify’s daily limit'.replace('’', "'") });
  await expect(notice).toBeVisible({ timeout: 30_000 });
  const until = new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(resumes * 1000));
  // Only the catalogs wait: the part of the day Pacebeat gives them is used, not Spotify's limit.
  await expect(notice).toContainText("Reading artists' catalogs is paused");
  await expect(notice).not.toContainText('daily limit reached');
  await expect(notice).toContainText(`reading your artists' catalogs waits until ${until}`);
  await expect(notice).toContainText('Meanwhile your liked songs and playlists are still read');
  // Near the top: above both tables.
  const noticeBox = (await notice.boundingBox())!;
  const targetsHeading = (await page.getByRole('heading', { name: 'Target playlists' }).boundingBox())!;
  expect(noticeBox.y).toBeLessThan(targetsHeading.y);
  await shoot(page, 'daily-limit');
});
