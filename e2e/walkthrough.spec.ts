import { expect, test } from '@playwright/test';
import {
  connectThroughConsent,
  newSpotifyUser,
  scrollsSideways,
  signInAsAdmin,
  signUpByApi,
  uniqueEmail,
  WIDTHS,
} from './support.ts';

// What a walk-through of the app found, fixed, at a desktop's and a phone's width.

for (const { name, viewport } of WIDTHS) {
  test.describe(name, () => {
    test.use({ viewport });

    test('1, 2: every field has a length limit, the server keeps the email limits, and 400s read plainly', async ({
      page,
      request,
    }) => {
      await page.goto('/login');
      await page.getByRole('button', { name: 'Create an account' }).click();
      // Over its limit a field keeps what was typed (nothing is cut without a word) and says why at once.
      await page.getByLabel('First & last name').fill('n'.repeat(300));
      await expect(page.getByLabel('First & last name')).toHaveValue('n'.repeat(300));
      await expect(page.getByText('Your name can have at most 200 characters')).toBeVisible();
      await page.getByLabel('First & last name').fill('Ria');
      await page.getByLabel('Email').fill(`${'a'.repeat(300)}@example.org`);
      expect((await page.getByLabel('Email').inputValue()).length).toBe(312);
      await page.getByLabel('Email').fill(`${'a'.repeat(65)}@example.org`);
      await page.getByLabel('Choose password').fill('stride170');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect(page.getByText('That email address is too long')).toBeVisible();

      // The server refuses what a browser without these limits would send, in the same plain words.
      const long = await request.post('/api/signup', {
        data: { email: `${'a'.repeat(300)}@example.org`, name: 'R', password: 'stride170' },
      });
      expect(long.status()).toBe(400);
      expect(((await long.json()) as { error: { message: string } }).error.message).toContain(
        'That email address is too long',
      );
      expect(await scrollsSideways(page)).toBe(false);
    });

    test('3: a refused ?sudo says why and offers the way out', async ({ page }) => {
      await signUpByApi(page);
      await page.goto('/about?sudo=nobody%40example.org');
      await expect(page.getByText('You cannot view Pacebeat as "nobody@example.org"')).toBeVisible();
      await expect(page.getByText('Only admins may use sudo.')).toBeVisible();
      await expect(page.getByText('(Internal error occured! should not be here!)')).toHaveCount(0);
      await page.getByRole('link', { name: 'Leave sudo mode' }).click();
      await expect(page).toHaveURL(/\/about$/);
      await expect(page.getByRole('heading', { name: 'About Pacebeat', level: 1 })).toBeVisible();
    });

    test('4: sudo as an admin: "Viewing as", the URL keeps ?sudo through links and a reload, and a way out', async ({
      page,
      request,
    }) => {
      const target = uniqueEmail('viewed');
      expect(
        (
          await request.post('/api/signup', {
            data: { email: target, name: 'Tess Target', password: 'stride170' },
          })
        ).ok(),
      ).toBe(true);
      await signInAsAdmin(page);
      const sudo = `sudo=${encodeURIComponent(target)}`;

      await page.goto(`/about?${sudo}`);
      const banner = page.getByRole('status', { name: 'Sudo mode' });
      await expect(banner).toContainText(`Viewing as Tess Target (${target})`);
      await page.getByRole('contentinfo').getByRole('link', { name: 'About Pacebeat' }).click();
      await expect(page).toHaveURL(new RegExp(`/about\\?${sudo}$`));
      await page.reload();
      await expect(banner).toBeVisible();

      // The viewed user has no Spotify: / sends on to the connect page, which is read-only in sudo mode.
      await page.getByRole('link', { name: 'Pacebeat' }).first().click();
      await expect(page).toHaveURL(new RegExp(`/connect/spotify\\?${sudo}$`));
      await expect(page.getByText('(disabled in sudo mode; go to main page)')).toBeVisible();

      await banner.getByRole('link', { name: 'Leave sudo mode' }).click();
      await expect(page).toHaveURL(/\/connect\/spotify$/);
      await expect(banner).toHaveCount(0);
      await page.getByRole('button', { name: /^Account: / }).click();
      await expect(page.getByRole('menu').getByText('Signed in as Ada Admin')).toBeVisible();
    });

    test('5: a Spotify account not on the app’s user list shows the disabled-service alert and a way on', async ({
      page,
    }) => {
      await signUpByApi(page);
      await connectThroughConsent(page, await newSpotifyUser(page, { registered: false }));
      const alert = page.getByRole('alert').filter({ hasText: 'is in disabled state in your account' });
      await expect(alert).toContainText('Service "spotify" is in disabled state in your account. Reason: ');
      await expect(alert).toContainText('user list');
      await expect(page.getByText('Processing authorization result from Spotify...')).toHaveCount(0);
      await alert.getByRole('button', { name: 'reconnect to it' }).click();
      await expect(page.getByRole('button', { name: 'Connect to Spotify' })).toBeVisible();
    });

    test('6: visitors on connect and disconnect go to /login; the unknown state offers Proceed', async ({
      page,
    }) => {
      for (const path of ['/connect/spotify', '/disconnect/spotify']) {
        await page.goto(path);
        await expect(page).toHaveURL(/\/login$/);
      }
      await signUpByApi(page);
      await page.goto('/connect/spotify?code=x&error=y');
      await expect(page.getByText('Internal error: unknown state for this page.')).toBeVisible();
      await page.getByRole('button', { name: 'Proceed' }).click();
      await expect(page).toHaveURL(/\/connect\/spotify$/); // via /: nothing is connected yet
    });

    test('7: connect and disconnect fit the state', async ({ page }) => {
      await signUpByApi(page);
      await page.goto('/disconnect/spotify');
      await expect(
        page.getByText('Spotify is not connected, so there is nothing to disconnect.'),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: 'Disconnect from Spotify' })).toHaveCount(0);
      await page.getByRole('button', { name: 'Account: Ria Runner' }).click();
      await expect(page.getByRole('menuitem', { name: 'Connect Spotify' })).toBeVisible();
      await expect(page.getByRole('menuitem', { name: 'Disconnect Spotify' })).toHaveCount(0);
      await page.keyboard.press('Escape');

      await connectThroughConsent(page, await newSpotifyUser(page));
      // A connect waits up to 12 s for a free call when Spotify's window is full (CONNECT_WAIT_MAX_MS).
      await expect(page.getByText('Spotify connected successfully.')).toBeVisible({ timeout: 40_000 });
      await page.goto('/connect/spotify');
      await expect(page.getByRole('heading', { name: 'Spotify is connected' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Connect to Spotify' })).toHaveCount(0);
    });

    test('8: the header, titles, banner and the visitor pages', async ({ page }) => {
      await page.goto('/ping');
      await expect(page.getByText('Ping answers signed-in users only: log in first.')).toBeVisible();
      await expect(page).toHaveTitle('Ping · Pacebeat');
      await page.goto('/login');
      await expect(page).toHaveTitle('Log in or register · Pacebeat');
      const form = page.getByRole('heading', { name: 'Log in or register' });
      const box = (await form.boundingBox())!;
      if (viewport.width >= 960) {
        // Centred on a desktop, not a narrow form pinned left.
        expect(box.x).toBeGreaterThan(viewport.width / 4);
      }
      await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toHaveCount(0); // already here
      await page.goto('/about');
      await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();

      await signUpByApi(page);
      await page.goto('/about');
      const demo = page.getByRole('status', { name: 'Demo mode' });
      await expect(demo).toBeVisible();
      await expect(demo).not.toContainText('SPOTIFY_CLIENT_ID');
      expect((await demo.boundingBox())!.height).toBeLessThan(viewport.width < 600 ? 80 : 50);
      await expect(page.getByRole('button', { name: 'Account: Ria Runner' })).toBeVisible();
      expect(await scrollsSideways(page)).toBe(false);
    });

    test('9: a visitor’s pages produce no console errors and no 401s', async ({ page }) => {
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      page.on('response', (r) => {
        if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
      });
      for (const path of ['/', '/login', '/about', '/ping']) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
      }
      await expect(page.getByText('Ping answers signed-in users only: log in first.')).toBeVisible();
      expect(problems).toEqual([]);
    });
  });
}
