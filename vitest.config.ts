import { defineConfig } from 'vitest/config';

// Integration tests run twice: once against SQLite, once against PostgreSQL (TEST_DB picks).
const integration = (db: 'sqlite' | 'postgres') => ({
  test: {
    name: db,
    include: ['tests/integration/**/*.test.ts'],
    env: { TEST_DB: db },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [{ test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } }, integration('sqlite'), integration('postgres')],
  },
});
