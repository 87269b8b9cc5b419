// npm run billing:run -- --date YYYY-MM-DD: the metered billing run for that day (usage rows, periods
// that ended by the next midnight, billing alerts), as the hourly job runs it just after the day ends.
// The injectable clock for tests, end-to-end runs and catching up by hand; running it twice charges once.
import { parseArgs } from 'node:util';
import { migrateToLatest } from '../db/index.ts';
import { runBillingDay } from '../src/server/billing/usage-job.ts';
import { ConfigError, loadConfig } from '../src/server/config/env.ts';
import { createContext } from '../src/server/context.ts';

const { values } = parseArgs({ options: { date: { type: 'string' } } });
const date = values.date ?? new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)) || new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) {
  console.error('Give the day as --date YYYY-MM-DD.');
  process.exit(2);
}

try {
  const config = await loadConfig();
  // Half an hour after the day ends: the day is complete, and a period ending at its midnight closes.
  const at = new Date(Date.parse(`${date}T00:00:00Z`) + 24.5 * 3_600_000);
  const ctx = await createContext(config, { clock: { now: () => at } });
  await migrateToLatest(ctx.db);
  const result = await runBillingDay(ctx);
  console.log(JSON.stringify(result));
  // On PostgreSQL the notices it stored are sent on to the app nodes, whose open streams show them.
  await ctx.events.close();
  await ctx.db.destroy();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
