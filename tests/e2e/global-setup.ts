import type { FullConfig } from '@playwright/test';
import { startServer } from '../support/server.ts';
import { E2E_ADMIN } from './fixtures.ts';

/**
 * One real server (SQLite, fresh data dir) per Playwright worker, so a test that changes an
 * instance-wide setting never meets another worker's test. Each URL and data dir reaches the
 * workers through the environment (E2E_BASE_URL_<n>, E2E_DATA_DIR_<n>); fixtures.ts picks its own
 * by the worker's TEST_PARALLEL_INDEX.
 */
export default async function globalSetup(config: FullConfig) {
  const servers = await Promise.all(
    Array.from({ length: Math.max(1, config.workers) }, () =>
      startServer({ db: 'sqlite', env: { ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password, ADMIN_NAME: 'Ada Admin' } }),
    ),
  );
  servers.forEach((server, index) => {
    process.env[`E2E_BASE_URL_${index}`] = server.url;
    process.env[`E2E_DATA_DIR_${index}`] = server.dataDir;
  });
  return async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
}
