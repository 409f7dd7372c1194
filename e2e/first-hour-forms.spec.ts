import { expect, test, type Page } from '@playwright/test';
import {
  connectThroughConsent,
  cutLabels,
  newSpotifyUser,
  scrollsSideways,
  signUpByApi,
  WIDTHS,
} from './support.ts';

// Messages and forms, in the browser: the pace dialog's refusal is a sentence under the field
// it concerns and in view (at a desktop's and a phone's width), a joined emoji is a name, a double click
// on "Add" adds one pace, and the sign-in page links the terms and the privacy policy.

const SHOTS = process.env.FORMS_SCREENSHOTS_DIR;

async function pacesPage(page: Page) {
  await signUpByApi(page);
  const user = await newSpotifyUser(page, { liked: 5 });
  await connectThroughConsent(page, user);
  await page.getByRole('button', { name: 'Proceed' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/paces');
  await expect(page.getByRole('heading', { name: 'Your paces', level: 1 })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Pacebeat 150–160 BPM' })).toBeVisible();
}

async function openAdd(page: Page) {
  await page.getByRole('button', { name: 'Add a pace' }).click();
  return page.getByRole('dialog', { name: 'Add a pace' });
}

for (const { name, viewport } of WIDTHS) {
  test.describe(name, () => {
    test.use({ viewport });

    test('the pace dialog’s refusal: a sentence under its field, in view, gone once the field is edited', async ({
      page,
    }) => {
      test.setTimeout(90_000);
      await pacesPage(page);
      const dialog = await openAdd(page);
      // Every label whole, at a phone's width too (side by side, "Shortest (minutes)" was cut).
      await expect(dialog.getByLabel('Shortest (minutes)')).toBeVisible();
      expect(await cutLabels(dialog)).toEqual([]);
      const nameField = dialog.getByLabel('Name');
      await nameField.fill('Pacebeat 150–160 BPM'); // a default pace's name: the server refuses it
      await dialog.getByLabel('Lowest BPM').fill('150');
      await dialog.getByLabel('Highest BPM').fill('158');
      await dialog.getByRole('button', { name: 'Add' }).click();
      const refusal = dialog.getByText('You already have a target of that name.');
      await expect(refusal).toBeVisible();
      await expect(refusal).toBeInViewport();
      await expect(nameField).toBeFocused();
      await expect(nameField).toHaveAttribute('aria-invalid', 'true');
      await expect(dialog).not.toContainText(/body:|params:/);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/pace-dialog-error-${viewport.width}.png` });

      // A line break's relative, a tab, is refused before sending, in words, under the field.
      await nameField.fill('Long\trun');
      await expect(refusal).toHaveCount(0);
      await expect(dialog.getByText('The name may not hold line breaks, tabs')).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Add' })).toBeDisabled();
      expect(await scrollsSideways(page)).toBe(false);
    });

    test('a joined emoji is a name, and a double click on Add adds one pace', async ({ page }) => {
      test.setTimeout(90_000);
      await pacesPage(page);
      const dialog = await openAdd(page);
      const emojiName = `🏃‍♀️ Tempo ${name}`;
      await dialog.getByLabel('Name').fill(emojiName);
      await dialog.getByLabel('Lowest BPM').fill('161');
      await dialog.getByLabel('Highest BPM').fill('169');
      await dialog.getByRole('button', { name: 'Add' }).dblclick();
      await expect(dialog).toBeHidden();
      await expect(page.getByText('Added. Its playlist appears with its first songs.')).toBeVisible();
      await expect(page.getByText('You already have a target of that name.')).toHaveCount(0);
      await expect(page.getByRole('listitem').filter({ hasText: emojiName })).toHaveCount(1);
      const res = await page.request.get('/api/spotify/targets');
      const { data } = (await res.json()) as { data: { targets: Array<{ target: string }> } };
      expect(data.targets.filter((t) => t.target === emojiName)).toHaveLength(1);
    });
  });
}

test('/login links the terms of service and the privacy policy; sign-up says “Sign up”', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/about#terms');
  await expect(page.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/about#privacy');
  await page.getByRole('button', { name: 'Create an account' }).click();
  await expect(page.getByRole('button', { name: 'Sign up' })).toBeVisible();
  await page.getByLabel('First & last name').fill('n'.repeat(5000));
  await expect(page.getByText('Your name can have at most 200 characters')).toBeVisible();
});
