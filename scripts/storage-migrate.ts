// npm run storage:migrate -- --to s3|local [--concurrency N]
// Copies every blob of the installation (files, thumbnails, avatars, branding) from the local disk
// (DATA_DIR/blobs) to the S3 bucket of the S3_* variables (environment or .env), or back with
// `--to local`: streamed, each read back from the target and compared by size and SHA-256. A journal
// (DATA_DIR/storage-migrate-to-<driver>.jsonl) records every verified copy, so a run that was
// stopped (killed, power cut, storage down) is simply run again: what is verified is skipped, what was
// uploaded but not yet recorded is verified in place, nothing is copied twice or lost. Only when every
// blob is copied and verified is the installation's storage_driver setting switched; the server
// itself uses STORAGE_DRIVER (and S3_*), which the script prints. Run it with the server stopped (or in
// maintenance mode): blobs written during the copy would be missed. The source is left as it was.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../db/index.ts';
import { migrateBlobs } from '../src/server/blobs/migrate.ts';
import { createS3BlobStore, createS3Client } from '../src/server/blobs/s3-store.ts';
import { createLocalBlobStore } from '../src/server/blobs/store.ts';
import { ConfigError, loadConfig } from '../src/server/config/env.ts';
import { faultPoint } from '../src/server/faults.ts';
import { createLogger } from '../src/server/logging/logger.ts';
import { writeSettings } from '../src/server/settings/service.ts';

const usage = 'Usage: npm run storage:migrate -- --to s3|local [--concurrency N]';
let args;
try {
  args = parseArgs({ options: { to: { type: 'string' }, concurrency: { type: 'string', default: '4' } } }).values;
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
const to = args.to;
if (to !== 's3' && to !== 'local') {
  console.error(`--to must be s3 or local.\n${usage}`);
  process.exit(2);
}
if (!/^([1-9]|1[0-6])$/.test(args.concurrency)) {
  console.error('--concurrency must be a whole number from 1 to 16.');
  process.exit(2);
}

try {
  // The bucket's settings are read whatever STORAGE_DRIVER says now (the migration is what changes it).
  process.env.STORAGE_DRIVER = 's3';
  const config = await loadConfig();
  if (config.storage.driver !== 's3') throw new ConfigError('Invalid configuration:\n  S3_BUCKET: is required');
  const logger = createLogger('warn');
  const local = createLocalBlobStore(path.join(config.dataDir, 'blobs'));
  const client = await createS3Client(config.storage);
  const s3 = await createS3BlobStore(config.storage, logger, { client });
  await s3.probe?.();
  const [source, target] = to === 's3' ? [local, s3] : [s3, local];
  const journal = path.join(config.dataDir, `storage-migrate-to-${to}.jsonl`);
  const where = `bucket "${config.storage.bucket}"${config.storage.endpoint ? ` at ${config.storage.endpoint}` : ''}`;
  console.log(to === 's3' ? `Copying ${path.join(config.dataDir, 'blobs')} to ${where}` : `Copying ${where} to ${path.join(config.dataDir, 'blobs')}`);
  const report = await migrateBlobs(source, target, {
    journal,
    concurrency: Number(args.concurrency),
    onBlob: (event, key, detail) => console.log(`${event}\t${key}\t${detail}`),
    // Test-only (CLOUD_DRIVE_FAULT=storage-migrate-after-upload): killed once the third blob is uploaded, before it is recorded.
    afterUpload: (n) => n === 3 && faultPoint({ config }, 'storage-migrate-after-upload'),
  });
  console.log(`${report.blobs} blobs (${report.bytes} bytes): ${report.copied} copied, ${report.adopted} already there and verified, ${report.skipped} verified by an earlier run, ${report.failed.length} failed`);
  if (report.failed.length > 0) {
    console.error('Some blobs could not be copied (listed above as failed): the storage setting is unchanged. Fix the cause and run the same command again; verified blobs are skipped.');
    process.exitCode = 1;
  } else {
    const db = await openDatabase(config.database);
    try {
      await writeSettings(db, { storage_driver: to });
    } finally {
      await db.destroy();
    }
    console.log(`Every blob is copied and verified; the installation's storage setting is now "${to}".`);
    console.log(to === 's3'
      ? 'Now set STORAGE_DRIVER=s3 (with the same S3_* variables) in the environment or .env and restart the server. The environment decides which storage the server uses. DATA_DIR/blobs is left as it was: remove it once you have checked the server on S3.'
      : 'Now set STORAGE_DRIVER=local (or remove it) in the environment or .env and restart the server. The bucket is left as it was.');
    process.exitCode = 0;
  }
  client.destroy();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(2);
}
