import { startServer } from '../support/server.ts';
import { E2E_ADMIN } from './fixtures.ts';

/** One real server (SQLite, fresh data dir) for the browser tests; its URL reaches the workers through the environment. */
export default async function globalSetup() {
  const server = await startServer({ db: 'sqlite', env: { ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password, ADMIN_NAME: 'Ada Admin' } });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  return async () => {
    await server.stop();
  };
}
