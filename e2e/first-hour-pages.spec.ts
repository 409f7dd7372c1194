import { expect, test } from '@playwright/test';
import {
  connectThroughConsent,
  newSpotifyUser,
  PASSWORD,
  scrollsSideways,
  signInAsAdmin,
  uniqueEmail,
  WIDTHS,
} from './support.ts';

// Issue 23, "Pages and states": what a visitor, an admin in sudo mode and a first load of a lazy page
// see, at a desktop's and a phone's width.

for (const { name, viewport } of WIDTHS) {
  test.describe(name, () => {
    test.use({ viewport });

    test('a visitor on a target’s page or the Excluded list goes to /login, never "Not signed in."', async ({
      page,
    }) => {
      for (const path of ['/targets/3f1c2b7e-0000-4000-8000-000000000001?list=skipped', '/excluded']) {
        await page.goto(path);
        await expect(page).toHaveURL(/\/login$/);
        await expect(page.getByText('Not signed in.')).toHaveCount(0);
      }
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
      await expect(runnerPage.getByText('Spotify connected successfully.')).toBeVisible({ timeout: 20_000 });
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
