import { defineConfig } from '@playwright/test';

// Debian's Chromium; the test suite never downloads a browser. Most specs run in its headless shell
// (the same engine without the browser around it: about a fifth less CPU); specs that need a part
// only the full browser has run there. Each worker has a server of its own
// (tests/e2e/global-setup.ts); E2E_WORKERS sets how many run at once (2: one per CPU of the CI machine).
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SHELL = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium-headless-shell';
const BROWSER = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The PDF viewer in a sandboxed preview is the full browser's (an extension the shell lacks).
const FULL_BROWSER = ['csp.spec.ts'];

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 30_000,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  reporter: process.env.CI ? 'list' : 'line',
  globalSetup: './tests/e2e/global-setup.ts',
  use: { trace: 'off' },
  projects: [
    { name: 'shell', testIgnore: FULL_BROWSER, use: { launchOptions: { executablePath: SHELL, args: ARGS } } },
    { name: 'browser', testMatch: FULL_BROWSER, use: { launchOptions: { executablePath: BROWSER, args: ARGS } } },
  ],
});
