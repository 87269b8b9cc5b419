import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

// This worker's own server (tests/e2e/global-setup.ts starts one per worker).
const slot = process.env.TEST_PARALLEL_INDEX ?? '0';
if (process.env[`E2E_BASE_URL_${slot}`]) {
  process.env.E2E_BASE_URL = process.env[`E2E_BASE_URL_${slot}`];
  process.env.E2E_DATA_DIR = process.env[`E2E_DATA_DIR_${slot}`];
}

export const test = base.extend({
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
});
export { expect };

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');

/** SCREENSHOTS=1 saves the screenshots `shot()` is asked for; without it the suite takes none. */
export const SCREENSHOTS = process.env.SCREENSHOTS === '1';

/**
 * Saves a screenshot for a person to look at (tests/e2e/screenshots/<name>.png, not committed), when
 * SCREENSHOTS=1: a page whole (full length), or one element. Nothing asserts on it, so the suite
 * skips it by default; a developer runs the spec of a screen they changed with SCREENSHOTS=1 and looks.
 */
export async function shot(target: Page | Locator, name: string, { fullPage = true }: { fullPage?: boolean } = {}): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  // Transitions finish at once, so a theme switched just before is shown as it settles.
  if ('goto' in target) await target.screenshot({ path: file, fullPage, animations: 'disabled' });
  else await target.screenshot({ path: file, animations: 'disabled' });
}

/**
 * Waits until every transition and animation that ends has ended (a theme just switched, a dialog
 * fading in): colours read mid-transition are neither the old theme's nor the new one's. Endless
 * ones (a spinner) are left running.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules) on the page as it is now and fails on any serious or
 * critical violation, printing each with the elements it found, so a screen stays usable with a
 * screen reader and the keyboard. Call it where a screen is shown (next to `shot()`).
 */
export async function expectNoSeriousA11yViolations(page: Page, screen = page.url(), { knownRules = [] as string[] } = {}): Promise<void> {
  await settled(page);
  // Only violations are read: axe then skips collecting the elements of every rule that passed.
  // (options() replaces the options whole, so it comes before withTags, which adds the rule set.)
  // axe.run in the page, with axe-core in every same-origin frame, rather than a partial run per
  // frame put together in a blank page that @axe-core/playwright opens for every scan (a new
  // renderer and a new parse of axe-core each time: 40% of the browser tests' CPU). The product has
  // no cross-origin frames, which are all the partial run would add.
  let axe = new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .setLegacyMode(true);
  if (knownRules.length) axe = axe.disableRules(knownRules);
  const result = await axe.analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious.map((v) => `[${v.impact}] ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}\n      ${n.failureSummary?.replace(/\n/g, '\n      ')}`).join('\n')}`);
  if (report.length) console.log(`axe on ${screen}:\n${report.join('\n')}`);
  expect(serious.map((v) => `${v.id} (${v.nodes.length})`), `serious accessibility violations on ${screen}`).toEqual([]);
}

let n = 0;
export function e2eEmail(prefix = 'e2e'): string {
  n += 1;
  return `${prefix}.${Date.now().toString(36)}.${n}@example.test`;
}

/** The admin account the e2e server creates at boot (ADMIN_EMAIL / ADMIN_PASSWORD). */
export const E2E_ADMIN = { email: 'admin@e2e.test', password: 'e2e admin password' };
export const PASSWORD = 'e2e password 123';

/**
 * A made-up client address (benchmarking range, never contacted) for the X-Forwarded-For header the
 * test server trusts, so the whole suite's sign-ups do not share one per-IP registration budget.
 */
function testIp(): string {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return `198.18.${octet()}.${octet()}`;
}

/** Signs a new account up through the API in this page's browser context and opens `path`. */
export async function signUpAndOpen(page: Page, path = '/platform/files', name = 'Grace Hopper'): Promise<string> {
  const email = e2eEmail('shell');
  const headers = { Origin: process.env.E2E_BASE_URL!, 'X-Requested-With': 'XMLHttpRequest', 'X-Forwarded-For': testIp() };
  const res = await page.request.post('/register', { data: { name, email, password: PASSWORD, password_confirmation: PASSWORD }, headers });
  if (res.status() !== 202) throw new Error(`register failed: ${res.status()}`);
  // Sign-up does not sign in (a taken address must look the same): sign in through the API.
  const login = await page.request.post('/login', { data: { email, password: PASSWORD }, headers });
  if (login.status() !== 200) throw new Error(`sign-in failed: ${login.status()}`);
  await page.goto(path);
  return email;
}

/**
 * Signs the page's browser context out by dropping its cookies, after taking the page off the app
 * first: an app screen left open notices its session is gone (its next request answers 401) and
 * goes to /sign-in on its own, which interrupts whatever navigation the test starts next.
 */
export async function dropSignIn(page: Page): Promise<void> {
  await page.goto('about:blank');
  await page.context().clearCookies();
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}
