// npm run fsck [-- --repair] [--grace-seconds N] [--json]
// Compares the blob store with the database (src/server/blobs/reconcile.ts), with the server's
// DATA_DIR and DATABASE_URL: prints every orphan blob (no row refers to it) and every row whose blob
// is missing, then the counts. With --repair, orphans older than the grace period
// (BLOB_ORPHAN_GRACE_SECONDS, default one hour) are removed. Safe while the server runs: blobs of
// uploads in progress are named by their intent, and young blobs are left alone.
import { parseArgs } from 'node:util';
import { reconcileBlobs } from '../src/server/blobs/reconcile.ts';
import { ConfigError, loadConfig } from '../src/server/config/env.ts';
import { createContext } from '../src/server/context.ts';

let args;
try {
  args = parseArgs({ options: { repair: { type: 'boolean', default: false }, 'grace-seconds': { type: 'string' }, json: { type: 'boolean', default: false } } }).values;
} catch (error) {
  console.error(`${(error as Error).message}\nUsage: npm run fsck [-- --repair] [--grace-seconds N] [--json]`);
  process.exit(2);
}
const grace = args['grace-seconds'];
if (grace !== undefined && !/^\d{1,9}$/.test(grace)) {
  console.error('--grace-seconds must be a whole number of seconds.');
  process.exit(2);
}

try {
  const config = await loadConfig();
  const ctx = await createContext({ ...config, logLevel: 'warn' });
  try {
    const report = await reconcileBlobs(ctx, {
      repair: args.repair,
      graceMs: grace !== undefined ? Number(grace) * 1000 : config.blobs.orphanGraceMs,
      onOrphan: (blob, removed) => console.log(`${removed ? 'removed' : 'orphan'}\t${blob.key}\t${blob.size}\t${blob.modifiedAt.toISOString()}`),
      onMissing: (m) => console.log(`missing\t${m.key}\t${m.kind}\t${m.id}`),
    });
    if (args.json) console.log(JSON.stringify(report));
    else {
      console.log(`${report.blobs} blobs (${report.bytes} bytes), ${report.referenced} referenced, ${report.unknown} unknown`);
      console.log(`${report.orphans} orphans (${report.orphanBytes} bytes)${args.repair ? `, ${report.removed} removed` : report.orphans > 0 ? ', run with --repair to remove them' : ''}; ${report.recent} unreferenced but younger than the grace period, kept`);
      console.log(`${report.references} blob references in rows, ${report.missing} missing`);
    }
    process.exitCode = report.missing > 0 || report.orphans > report.removed ? 1 : 0;
  } finally {
    await ctx.db.destroy();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(2);
}
