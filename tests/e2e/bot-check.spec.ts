import { test as base, expect, type Page } from '@playwright/test';
import { Client, uniqueEmail } from '../support/client.ts';
import { fakeBotCheckEnv, startFakeBotCheck, type FakeBotCheck } from '../support/fake-bot-check.ts';
import { withSeed } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { expectNoSeriousA11yViolations, shot } from './fixtures.ts';

/**
 * The bot check in the browser: a server of its own (the shared e2e server never has it on), the
 * provider's script served by the local stand-in (tests/support/fake-bot-check.ts), whose score for
 * the page's tokens each test picks.
 */
const ADMIN = { email: 'bot-admin@e2e-bot.test', password: 'bot check admin passphrase' };
const PASSWORD = 'a sign-up passphrase 42';
const REFUSED = 'The bot check failed. Reload the page and try again.';

const test = base.extend<object, { botServer: { server: RunningServer; fake: FakeBotCheck } }>({
  botServer: [
    async ({}, use) => {
      const fake = await startFakeBotCheck();
      const server = await startServer({ db: 'sqlite', env: { ...fakeBotCheckEnv(fake), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
      const admin = new Client(server.url);
      expect((await admin.post('/login', ADMIN)).status).toBe(200);
      const on = await admin.request('/api/admin/settings/sign-in', { method: 'PUT', json: { recaptcha: { enabled: true, site_key: fake.siteKey, secret: fake.secret, min_score: 0.5 } } });
      expect(on.status, on.text).toBe(200);
      await use({ server, fake });
      await server.stop();
      await fake.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ botServer }, use) => {
    await use(botServer.server.url);
  },
});
test.describe.configure({ mode: 'serial' });

const accountExists = (server: RunningServer, email: string) => withSeed(server, async (seed) => !!(await seed.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()));

async function signUp(page: Page, email: string): Promise<void> {
  await page.goto('/sign-up');
  await expect(page.getByText('This form is protected by a bot check.')).toBeVisible();
  await page.getByLabel('Full name').fill('Rita Robotless');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
}

test('refuses a sign-up the provider scores low, with the message on the form', async ({ page, botServer: { server, fake } }) => {
  fake.shimScore = 0.1;
  const email = uniqueEmail('bot-low');
  await signUp(page, email);
  await expect(page.getByRole('alert')).toHaveText(REFUSED);
  await expect(page).toHaveURL(/\/sign-up$/);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  // The page executed the sign-up action with the site key, and the server asked about that token.
  expect(fake.requests.at(-1)?.token).toMatchObject({ action: 'signup', siteKey: fake.siteKey });
  expect(await accountExists(server, email)).toBe(false);
  await expect(page.locator('body')).not.toContainText('0.1');

  await shot(page, 'botcheck-signup-refused');
  await expectNoSeriousA11yViolations(page, 'sign-up refused');
  await page.emulateMedia({ colorScheme: 'dark' });
  await signUp(page, uniqueEmail('bot-low'));
  await expect(page.getByRole('alert')).toHaveText(REFUSED);
  await shot(page, 'botcheck-signup-refused-dark');
  await expectNoSeriousA11yViolations(page, 'sign-up refused, dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp(page, uniqueEmail('bot-low'));
  await expect(page.getByRole('alert')).toHaveText(REFUSED);
  await shot(page, 'botcheck-signup-refused-phone');
  await expectNoSeriousA11yViolations(page, 'sign-up refused, phone');
});

test('signs up with a good score', async ({ page, botServer: { server, fake } }) => {
  fake.shimScore = 0.9;
  const email = uniqueEmail('bot-good');
  await signUp(page, email);
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('status')).toContainText('Check your email to continue');
  expect(await accountExists(server, email)).toBe(true);
});

test('signs in with a good score, and not with a low one', async ({ page, botServer: { fake } }) => {
  const signIn = async () => {
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  };
  fake.shimScore = 0.2;
  await signIn();
  await expect(page.getByRole('alert')).toHaveText(REFUSED);
  expect(fake.requests.at(-1)?.token).toMatchObject({ action: 'login' });
  fake.shimScore = 0.9;
  await signIn();
  await expect(page).toHaveURL(/\/platform\/files/);
});

test('checks the forgotten-password and contact forms with their own actions', async ({ page, botServer: { fake } }) => {
  const forgot = async () => {
    await page.goto('/forgotten-password');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
  };
  fake.shimScore = 0.2;
  await forgot();
  await expect(page.getByRole('alert')).toHaveText(REFUSED);
  expect(fake.requests.at(-1)?.token).toMatchObject({ action: 'forgot_password' });
  fake.shimScore = 0.9;
  await forgot();
  await expect(page.getByRole('status')).toContainText('a reset link is on its way');

  const contact = async () => {
    await page.goto('/contact-us');
    await page.getByLabel('Your name').fill('Vera Visitor');
    await page.getByLabel('Email').fill('vera@example.test');
    await page.getByLabel('Message').fill('Is there a family plan?');
    await page.getByRole('button', { name: 'Send message' }).click();
  };
  fake.shimScore = 0.2;
  await contact();
  await expect(page.getByRole('alert')).toHaveText(REFUSED);
  expect(fake.requests.at(-1)?.token).toMatchObject({ action: 'contact' });
  await shot(page, 'botcheck-contact-refused');
  await expectNoSeriousA11yViolations(page, 'contact refused');
  fake.shimScore = 0.9;
  await contact();
  await expect(page).toHaveURL(/\/successfully-send$/);
});
