import { once } from 'node:events';
import { bootstrapAdmin } from './server/bootstrap.ts';
import { ConfigError, loadConfig } from './server/config/env.ts';
import { createContext } from './server/context.ts';
import { wireListeners } from './server/host/listeners.ts';
import { migrateToLatest } from '../db/index.ts';
import { createHttpServer } from './server/host/server.ts';
import { scheduleTrashPurge } from './server/files/purge.ts';
import { scheduleUploadSweep } from './server/uploads/tus.ts';
import { scheduleRemoteUploadRecovery } from './server/uploads/remote.ts';
import { scheduleThumbnailCatchUp } from './server/previews/catch-up.ts';
import { startThumbnailWorker } from './server/previews/thumbnails.ts';
import { startTeamSignUps } from './server/teams/invitations.ts';
import { holdNodeLease } from './server/cluster/node.ts';
import { recoverUploads } from './server/uploads/recover.ts';
import { resumeDeletions } from './server/blobs/deletions.ts';
import { scheduleBlobReconciler } from './server/blobs/reconcile.ts';
import { scheduleUserDeletions } from './server/admin/users/deletion.ts';
import { scheduleBillingDay } from './server/billing/usage-job.ts';
import { closeEventStreams, hubFor } from './server/live/hub.ts';
import { logEventLoopStats } from './server/host/loop-stats.ts';
import { startDraining } from './server/health/drain.ts';

/** The process entry: config, context, migrations, then the HTTP server; SIGTERM drains and closes. */
async function main(): Promise<void> {
  // The built app is always a production build: without this, packages that choose their build by
  // NODE_ENV (React's server renderer, which Astro loads) load their development builds, about
  // twice the code and memory, with checks meant for a developer's machine.
  process.env.NODE_ENV ??= 'production';
  let config;
  try {
    config = await loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const ctx = await createContext(config);
  // A bucket that is missing or refuses the credentials stops the start, naming the variable to fix.
  try {
    await ctx.blobs.probe?.();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // REDIS_URL that cannot be reached stops the start too.
  if (config.redis) {
    try {
      await ctx.rateLimits.ping();
    } catch (error) {
      console.error(`Invalid configuration:\n  REDIS_URL: Redis at ${redactedUrl(config.redis.url)} could not be reached (${(error as Error).message})`);
      process.exit(1);
    }
  }
  wireListeners(ctx);
  // prom-client is loaded only when metrics are on: it costs memory at rest, which matters (README, Benchmarks).
  if (config.metricsToken) {
    const { createMetrics } = await import('./server/metrics/registry.ts');
    ctx.metrics = await createMetrics(ctx);
  }
  // The live streams' listeners hear every node: on PostgreSQL this opens the LISTEN connection,
  // and the node takes no request before it hears the others.
  hubFor(ctx);
  await ctx.events.ready();
  const { results } = await migrateToLatest(ctx.db);
  for (const r of results ?? []) ctx.logger.info({ migration: r.migrationName }, 'migrated');
  await bootstrapAdmin(ctx);
  // This node is alive from here until it stops (cluster/node.ts): other nodes leave its uploads alone.
  const lease = await holdNodeLease(ctx);
  // Before listening: uploads a crash interrupted while finishing are settled while no request can race them.
  await recoverUploads(ctx).catch((error: unknown) => ctx.logger.error({ err: error }, 'upload recovery failed'));
  // Blobs whose rows a crash deleted before the blobs went (emptying the trash, the purge).
  await resumeDeletions(ctx).catch((error: unknown) => ctx.logger.error({ err: error }, 'resuming blob deletions failed'));

  const server = await createHttpServer(ctx);
  server.listen(config.port, config.host);
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  ctx.logger.info({ url: config.appUrl.href, port, pid: process.pid, database: config.database.dialect }, 'listening');
  const stopPurge = scheduleTrashPurge(ctx);
  const stopSweep = scheduleUploadSweep(ctx);
  const stopRecovery = scheduleRemoteUploadRecovery(ctx);
  const stopThumbnails = startThumbnailWorker(ctx);
  const stopThumbnailCatchUp = scheduleThumbnailCatchUp(ctx);
  const stopTeamSignUps = startTeamSignUps(ctx);
  const stopReconciler = scheduleBlobReconciler(ctx);
  const stopDeletions = scheduleUserDeletions(ctx);
  const stopBilling = scheduleBillingDay(ctx);
  const loopStatsMs = Number(process.env.EVENT_LOOP_STATS_MS ?? 0);
  const stopLoopStats = loopStatsMs > 0 ? logEventLoopStats(ctx.logger, loopStatsMs) : () => {};

  let stopping = false;
  let drainNow: (() => void) | null = null;
  const stop = (signal: string) => {
    if (stopping) {
      // A second signal during SHUTDOWN_DELAY_SECONDS skips the rest of the delay.
      drainNow?.();
      return;
    }
    stopping = true;
    // /readyz fails from now on: load balancers that probe it stop sending new requests.
    startDraining(ctx);
    if (config.shutdownDelayMs > 0) {
      ctx.logger.info({ signal, delay_ms: config.shutdownDelayMs }, 'shutting down: readiness fails, still serving until the delay ends');
      const timer = setTimeout(() => drainNow?.(), config.shutdownDelayMs);
      drainNow = () => {
        drainNow = null;
        clearTimeout(timer);
        drain(signal);
      };
      return;
    }
    drain(signal);
  };
  const drain = (signal: string) => {
    ctx.logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    server.close(async () => {
      await stopPurge();
      await stopSweep();
      await stopRecovery();
      await stopThumbnails();
      await stopThumbnailCatchUp();
      stopTeamSignUps();
      await stopReconciler();
      await stopDeletions();
      await stopBilling();
      stopLoopStats();
      await ctx.events.close();
      await ctx.rateLimits.close();
      await lease.release();
      await ctx.db.destroy();
      ctx.logger.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
    closeEventStreams(ctx);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/** A URL as it may be shown: without its password. */
function redactedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.href;
}
