import { test as base, expect, type Page } from '@playwright/test';
import { type FakeOAuth, startFakeOAuth } from '../support/fake-oauth.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { configureSocialApps } from '../support/social.ts';
import { e2eEmail, expectNoSeriousA11yViolations, shot } from './fixtures.ts';

// A server of its own, pointed at a local fake of Google, GitHub and Facebook (tests/support/fake-oauth.ts).
const test = base.extend<object, { social: { server: RunningServer; fake: FakeOAuth } }>({
  social: [
    async ({}, use) => {
      const fake = await startFakeOAuth();
      const server = await startServer({ db: 'sqlite', env: fake.env });
      await configureSocialApps(server, fake, ['google', 'github', 'facebook']);
      await use({ server, fake });
      await server.stop();
      await fake.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ social }, use) => {
    await use(social.server.url);
  },
});
test.describe.configure({ mode: 'serial' });

/** Light, dark (the theme is picked before first paint, so dark needs a reload) and phone width, each checked with axe. */
async function shots(page: Page, name: string, ready: () => Promise<void>) {
  await shot(page, `social-${name}`);
  await expectNoSeriousA11yViolations(page, name);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await ready();
  await shot(page, `social-${name}-dark`);
  await expectNoSeriousA11yViolations(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await ready();
  await shot(page, `social-${name}-phone`);
  await expectNoSeriousA11yViolations(page, `${name}-phone`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a person signs in through Google, lands in the file area, then links and unlinks GitHub in settings', async ({ page, social }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = e2eEmail('social');
  social.fake.signInAs('google', { id: '4242', email, emailVerified: true, name: 'Mary Jackson' });

  await page.goto('/sign-in');
  const google = page.getByRole('button', { name: 'Continue with Google' });
  await expect(google).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue with GitHub' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue with Facebook' })).toBeVisible();
  await shots(page, 'sign-in', () => expect(google).toBeVisible());

  // Sign-up offers only providers that can make an account: Facebook's emails never count as verified.
  await page.goto('/sign-up');
  await expect(page.getByRole('button', { name: 'Sign up with Google' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign up with Facebook' })).toHaveCount(0);

  await page.goto('/sign-in');
  // "Keep me signed in" counts for the provider's way in too: the session outlives the browser.
  await page.getByLabel('Keep me signed in').check();
  await google.click();
  await expect(page).toHaveURL(/\/platform\/files$/);
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();
  const session = (await page.context().cookies()).find((c) => c.name === 'session');
  expect(session?.expires).toBeGreaterThan(Date.now() / 1000 + 24 * 3600);

  await page.goto('/user/settings/password');
  // The cookie notice would cover the card in the screenshots.
  await page.getByRole('button', { name: 'Got it' }).click();
  const card = page.getByRole('region', { name: 'Linked accounts' });
  await expect(card.getByTestId('linked-google')).toContainText(`Linked as ${email}`);
  await expect(card.getByText('Your account has no password of its own.', { exact: false })).toBeVisible();

  // The only way in cannot go.
  await card.getByRole('button', { name: 'Unlink your Google account' }).click();
  await expect(card.getByRole('alert')).toHaveText(/only way to sign in/);

  social.fake.signInAs('github', { id: '777', email: e2eEmail('octo'), emailVerified: true, name: 'Octo Cat' });
  await card.getByRole('button', { name: 'Link your GitHub account' }).click();
  await expect(page).toHaveURL(/\/user\/settings\/password$/);
  await expect(card.getByRole('status').filter({ hasText: 'Your GitHub account is linked' })).toBeVisible();
  await expect(card.getByTestId('linked-github')).toContainText('Linked as octo.');
  await shots(page, 'linked-accounts', () => expect(card.getByTestId('linked-github')).toContainText('Linked as'));

  await card.getByRole('button', { name: 'Unlink your GitHub account' }).click();
  await expect(card.getByTestId('linked-github')).toContainText('Not linked');
});

test('a refused sign-in comes back to the sign-in page with the reason', async ({ page, social }) => {
  social.fake.denyNext('google');
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('alert')).toHaveText('Signing in with Google was cancelled.');
});
