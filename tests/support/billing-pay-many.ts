// A second process recording top-ups at once with the test (invoice numbers across processes):
// node tests/support/billing-pay-many.ts <dataDir> <databaseUrl|-> <userId> <count>
import { loadConfig } from '../../src/server/config/env.ts';
import { createContext } from '../../src/server/context.ts';
import { topUp } from './billing-ledger.ts';

const [dataDir, databaseUrl, userId, count] = process.argv.slice(2) as [string, string, string, string];
const config = await loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(databaseUrl !== '-' ? { DATABASE_URL: databaseUrl } : {}) }, dataDir);
const ctx = await createContext(config);
await Promise.all(Array.from({ length: Number(count) }, (_, i) => topUp(ctx, userId, 100 + i)));
await ctx.db.destroy();
