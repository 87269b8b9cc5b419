import { defineConfig } from 'vitest/config';
import { SlowestFirst } from './tests/support/sequencer.ts';

/**
 * Integration files whose behaviour does not depend on the database: they run on SQLite alone.
 * What each checks lives above the database (a wire protocol, the bucket, the HTTP layer, memory
 * while streaming); the database work they cause is the same item and upload code that every other
 * integration file runs on both databases.
 */
const SQLITE_ONLY = [
  // WebDAV clients on the wire: litmus's conformance suite, rclone's copy, sync and check.
  'webdav-litmus',
  'webdav-rclone',
  'webdav-rclone-tree',
  // The bucket: S3 storage, its presigned redirects, tus finishing into it while s3rver dies.
  'storage-s3',
  'storage-presigned',
  'tus-s3-crash',
  // The HTTP layer: security headers, static assets, keep-alive and slow clients.
  'csp',
  'static-assets',
  'http-connection',
  // The server's memory while 200 MiB goes through it.
  'downloads-memory',
].map((name) => `tests/integration/${name}.test.ts`);

// Integration tests run on SQLite and on PostgreSQL (TEST_DB picks). Each file starts its own
// servers, which wait on the network and the disk as much as they compute: three files at a time
// keep the two CPUs of the CI machine busy.
const integration = (db: 'sqlite' | 'postgres') => ({
  test: {
    name: db,
    include: ['tests/integration/**/*.test.ts'],
    exclude: db === 'postgres' ? SQLITE_ONLY : [],
    env: { TEST_DB: db },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 3,
    // Files of a worker share one module registry (each file still evaluates itself): the product
    // and test-support modules every file imports are loaded once per worker, not once per file
    // (about 25 s of each database's phase). A file that mocks a module imports what uses it afresh
    // (shares.test.ts).
    isolate: false,
    sequence: { sequencer: SlowestFirst },
    // One migrated PostgreSQL database per run, copied for each server (tests/support/pg-template.ts).
    ...(db === 'postgres' ? { globalSetup: ['tests/support/pg-template.ts'] } : {}),
  },
});

export default defineConfig({
  test: {
    projects: [{ test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } }, integration('sqlite'), integration('postgres')],
  },
});
