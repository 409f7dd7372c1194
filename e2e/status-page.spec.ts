import { expect, test } from '@playwright/test';
import {
  connectThroughConsent,
  newSpotifyUser,
  PASSWORD,
  scrollsSideways,
  signUpByApi,
  uniqueEmail,
  WIDTHS,
} from './support.ts';

// The status page a runner opens every day, at a desktop's and a phone's width.

for (const { name, viewport } of WIDTHS) {
  test.describe(name, () => {
    test.use({ viewport });

    test('sign up, connect through the consent page, land on / with the greeting and the account menu', async ({
      page,
    }) => {
      await page.goto('/login');
      await page.getByRole('button', { name: 'Create an account' }).click();
      const email = uniqueEmail('status');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('First & last name').fill('Ria Runner');
      await page.getByLabel('Choose password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign up' }).click();

      // Signed in without a music service: / sends the runner on to connect one.
      await expect(page).toHaveURL(/\/connect\/spotify$/);
      await expect(page.getByRole('heading', { name: 'Welcome!' })).toBeVisible();
      await expect(page).toHaveTitle('Connect Spotify · Pacebeat');
      expect(await scrollsSideways(page)).toBe(false);

      await connectThroughConsent(page, await newSpotifyUser(page));
      await expect(
        page.getByRole('alert').filter({ hasText: 'Spotify connected successfully.' }),
      ).toBeVisible();
      await page.getByRole('button', { name: 'Proceed' }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { name: 'Hello, Ria!' })).toBeVisible();
      await expect(page).toHaveTitle('Running playlists · Pacebeat');

      await page.getByRole('button', { name: 'Account: Ria Runner' }).click();
      const menu = page.getByRole('menu');
      await expect(menu.getByText('Signed in as Ria Runner')).toBeVisible();
      await expect(menu.getByRole('menuitem', { name: 'Disconnect Spotify' })).toHaveAttribute(
        'href',
        '/disconnect/spotify',
      );
      await expect(menu.getByRole('menuitem', { name: 'Log in' })).toHaveCount(0);
      await menu.getByRole('menuitem', { name: 'Log out' }).click();
      await expect(page.getByRole('link', { name: 'Log in or register' })).toBeVisible();
    });

    // The whole product in demo mode: the library is scanned, tempos found, and playlists written.
    test('watch your playlists fill: four targets become links, sources grow, a source toggled off and on, a reload', async ({
      page,
    }) => {
      test.setTimeout(360_000);
      await signUpByApi(page);
      await connectThroughConsent(page, await newSpotifyUser(page, { liked: 300 }));
      await page.getByRole('button', { name: 'Proceed' }).click();
      await expect(page).toHaveURL(/\/$/);

      const targets = page.getByRole(viewport.width < 600 ? 'list' : 'table', { name: 'Target playlists' });
      const sources = page.getByRole(viewport.width < 600 ? 'list' : 'table', { name: 'Sources' });
      await expect(targets).toBeVisible({ timeout: 40_000 });
      for (const bpm of ['150-160', '160-170', '170-180', '180-190']) {
        await expect(targets.getByText(bpm, { exact: true })).toBeVisible();
      }
      // Without touching anything: the playlists get their Spotify links as tracks are placed.
      // (The "Tracks added" counts link to each target's page; the playlist links are Spotify's.)
      const playlistLinks = targets.getByRole('link', { name: /^Spotify/ });
      // A target's playlist is made with its first checked match; with a random 300-song library one
      // pace may have none yet (catalogs come later), so at least two must appear. The others are named
      // in plain text once a first job finished (spec §2), else followed by "(creating...)".
      await expect.poll(() => playlistLinks.count(), { timeout: 200_000 }).toBeGreaterThanOrEqual(2);
      for (const range of ['150–160', '160–170', '170–180', '180–190'])
        await expect(targets.getByText(`Pacebeat ${range} BPM`, { exact: false }).first()).toBeVisible();
      await expect(playlistLinks.first().locator('svg title')).toHaveText('Spotify');
      await expect(targets.getByRole('link', { name: /tracks added to Pacebeat/ })).toHaveCount(4);
      await expect(page.getByTestId('library-summary')).toContainText('songs, ');

      // Liked Songs: the count of tracks seen grows with the 15 s reloads.
      const liked = sources.getByRole('switch', { name: 'Enabled: Liked Songs' });
      await expect(liked).toBeChecked();
      await expect(page.getByTestId('library-summary')).not.toContainText('no songs found', {
        timeout: 60_000,
      });

      // A source toggled off, kept off across a reload, and on again.
      await liked.click();
      await expect(liked).not.toBeChecked();
      await expect(liked).toBeEnabled();
      await page.reload();
      await expect(sources.getByRole('switch', { name: 'Enabled: Liked Songs' })).not.toBeChecked();
      await sources.getByRole('switch', { name: 'Enabled: Liked Songs' }).click();
      await expect(sources.getByRole('switch', { name: 'Enabled: Liked Songs' })).toBeChecked();
      expect(await scrollsSideways(page)).toBe(false);
    });
  });
}
