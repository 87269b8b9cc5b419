import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

/** axe-core's minified build (650 KB; the package's `source` is the 1.5 MB unminified one). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** WCAG rules axe still calls experimental, and so leaves out unless asked: 2.5.3, the visible label is in the accessible name. */
const EXTRA_RULES = { 'label-content-name-mismatch': { enabled: true } };

/**
 * Puts axe-core into every frame of the page that lacks it (same-origin frames: the product has no
 * others). A document keeps it until it is left, so the scans of one screen's states parse it once.
 */
async function injectAxe(page: Page): Promise<void> {
  for (const frame of page.frames()) {
    try {
      if (await frame.evaluate(() => 'axe' in window)) continue;
      await frame.evaluate(`${AXE_SOURCE}\n;axe.configure({ allowedOrigins: ['<same_origin>'] });`);
    } catch (error) {
      // A frame that went away or cannot be reached is not scanned; the page itself must be.
      if (frame === page.mainFrame()) throw error;
    }
  }
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules) on the page as it is now and fails on any serious or
 * critical violation, printing each with the elements it found, so a screen stays usable with a
 * screen reader and the keyboard. Call it where a screen is shown (next to `shot()`).
 */
export async function expectNoSeriousA11yViolations(page: Page, screen = page.url(), { knownRules = [] as string[] } = {}): Promise<void> {
  await settled(page);
  // axe.run in the page, frames included, as @axe-core/playwright's legacy mode does, but with
  // axe-core put into a document once rather than twice per scan, minified, and only violations
  // collected (not the elements of every rule that passed): the scans were 30% of the browser tests' CPU.
  await injectAxe(page);
  const rules = { ...EXTRA_RULES, ...Object.fromEntries(knownRules.map((rule) => [rule, { enabled: false }])) };
  const options = { runOnly: { type: 'tag', values: WCAG_TAGS }, resultTypes: ['violations'], rules };
  const violations = await page.evaluate(
    async (runOptions) => (await (window as unknown as { axe: { run(context: Document, options: unknown): Promise<{ violations: Violation[] }> } }).axe.run(document, runOptions)).violations,
    options,
  );
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious.map((v) => `[${v.impact}] ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}\n      ${n.failureSummary?.replace(/\n/g, '\n      ')}`).join('\n')}`);
  if (report.length) console.log(`axe on ${screen}:\n${report.join('\n')}`);
  expect(serious.map((v) => `${v.id} (${v.nodes.length})`), `serious accessibility violations on ${screen}`).toEqual([]);
}

interface Violation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
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
