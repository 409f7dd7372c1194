import { expect, test } from '@playwright/test';
import {
  connectThroughConsent,
  newSpotifyUser,
  PASSWORD,
  scrollsSideways,
  signInAsAdmin,
  signUpByApi,
  uniqueEmail,
  WIDTHS,
} from './support.ts';

// Pages and states: what a visitor, an admin in sudo mode and a first load of a lazy page
// see, at a desktop's and a phone's width.

for (const { name, viewport } of WIDTHS) {
  test.describe(name, () => {
    test.use({ viewport });

    test('a visitor on a target’s page or the Excluded list goes to /login, never "Not signed in.", and returns there after signing in', async ({
      page,
      request,
    }) => {
      for (const path of ['/targets/3f1c2b7e-0000-4000-8000-000000000001?list=skipped', '/excluded']) {
        await page.goto(path);
        await expect(page).toHaveURL(/\/login\?next=/);
        await expect(page.getByText('Not signed in.')).toHaveCount(0);
      }
      // Signing in there returns to the page asked for.
      const email = uniqueEmail('returning');
      // (made through another request context, so this page stays a visitor's)
      const made = await request.post('/api/signup', {
        data: { email, name: 'Ria Runner', password: PASSWORD },
      });
      expect(made.status()).toBe(200);
      await page.goto('/excluded');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/\/excluded$/);
    });

    test('the first load of a lazy page warns nothing in the console', async ({ page }) => {
      const warnings: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
      });
      for (const path of ['/about', '/login']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      }
      expect(warnings.filter((w) => w.includes('HydrateFallback'))).toEqual([]);
    });

    test('sudo mode: the Enabled switches are disabled with the reason, and the banner wraps the address', async ({
      browser,
      page,
    }) => {
      test.setTimeout(120_000);
      // A runner with Spotify connected, in a browser of their own.
      const runner = await browser.newContext({ viewport, baseURL: test.info().project.use.baseURL });
      const runnerPage = await runner.newPage();
      const email = uniqueEmail('a-rather-long-address-for-the-banner');
      const signup = await runnerPage.request.post('/api/signup', {
        data: { email, name: 'Sam Sudo', password: PASSWORD },
      });
      expect(signup.ok()).toBe(true);
      await connectThroughConsent(runnerPage, await newSpotifyUser(runnerPage, { liked: 30 }));
      await expect(runnerPage.getByText('Spotify connected successfully.')).toBeVisible({ timeout: 40_000 });
      await runner.close();

      await signInAsAdmin(page);
      await page.goto(`/?sudo=${encodeURIComponent(email)}`);
      const sources = page.getByRole(viewport.width < 600 ? 'list' : 'table', { name: 'Sources' });
      const liked = sources.getByRole('switch', { name: 'Enabled: Liked Songs' });
      await expect(liked).toBeVisible({ timeout: 30_000 });
      await expect(liked).toBeDisabled();
      await expect(page.getByTestId('read-only-reason')).toHaveText(
        'Viewing only: changes are disabled in sudo mode.',
      );
      const banner = page.getByRole('status', { name: 'Sudo mode' });
      await expect(banner).toContainText(email);
      // The whole address is inside the banner, and the banner inside the window.
      const fits = await banner.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const msg = el.querySelector('.MuiAlert-message')!;
        return (
          msg.scrollWidth <= msg.clientWidth + 1 &&
          box.right <= el.ownerDocument.documentElement.clientWidth + 1
        );
      });
      expect(fits).toBe(true);
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: test.info().outputPath(`sudo-${name}.png`), fullPage: true });
    });
  });
}

test('no page scrolls sideways at 360 px, for a visitor or a connected runner', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 360, height: 740 });
  const wide: string[] = [];
  const check = async (path: string, ready: () => Promise<void>) => {
    await page.goto(path);
    await ready();
    if (await scrollsSideways(page)) wide.push(path);
  };
  const heading = () => expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  for (const path of ['/', '/about', '/login']) await check(path, heading);

  await signUpByApi(page);
  await check('/connect/spotify', () =>
    expect(page.getByRole('button', { name: 'Connect to Spotify' })).toBeVisible(),
  );
  await connectThroughConsent(page, await newSpotifyUser(page, { liked: 40 }));
  await expect(page.getByText('Spotify connected successfully.')).toBeVisible({ timeout: 40_000 });
  await check('/', heading);
  await check('/ping', () => expect(page.getByRole('button', { name: /^pong, / })).toBeVisible());
  await check('/paces', () =>
    expect(page.getByText(/songs with a known tempo/)).toBeVisible({ timeout: 120_000 }),
  );
  await check('/excluded', heading);
  // A target's page (it lists what waits even before the playlist exists).
  const res = await page.request.get('/api/spotify/targets');
  const { data } = (await res.json()) as { data: { targets: Array<{ target_id: string }> } };
  await check(`/targets/${data.targets[0]!.target_id}`, heading);
  await check('/disconnect/spotify', heading);
  expect(wide, 'pages wider than 360 px').toEqual([]);
});
