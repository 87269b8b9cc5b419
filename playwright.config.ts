import { defineConfig } from '@playwright/test';

// Debian's Chromium; the test suite never downloads a browser.
export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 30_000,
  workers: 1,
  reporter: process.env.CI ? 'list' : 'line',
  globalSetup: './tests/e2e/global-setup.ts',
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    trace: 'off',
  },
});
