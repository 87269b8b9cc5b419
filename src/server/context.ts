import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { openDatabase, type DB } from '../../db/index.ts';
import { createLocalBlobStore, type BlobStore } from './blobs/store.ts';
import type { Config } from './config/env.ts';
import { createEventBus, type EventBus } from './events/bus.ts';
import { createPostgresEventBus } from './events/pg-bus.ts';
import { createLogger, type Logger } from './logging/logger.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createDbRateLimits } from './limits/db-store.ts';
import type { RateLimitStore } from './limits/store.ts';
import type { Metrics } from './metrics/registry.ts';
import { storedMailConfig } from './settings/mail.ts';
import { storedStorage } from './settings/storage.ts';

export interface Clock {
  now(): Date;
}

/** The one application context: built once per process and handed to every service call. */
export interface AppContext {
  config: Config;
  db: DB;
  blobs: BlobStore;
  events: EventBus;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  /** Counts of rate limits, budgets and password back-off: the database, or Redis with REDIS_URL (limits/store.ts). */
  rateLimits: RateLimitStore;
  /**
   * This process's id among the app nodes sharing the database: recorded on the uploads it has in
   * flight, so that another node starting (or this one restarting) settles only what a dead process
   * left (cluster/node.ts).
   */
  nodeId: string;
  /** Prometheus metrics (metrics/registry.ts): set by the server process only when METRICS_TOKEN is. */
  metrics?: Metrics;
}

export async function createContext(config: Config, overrides: Partial<AppContext> = {}): Promise<AppContext> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const db = overrides.db ?? (await openDatabase(config.database));
  const nodeId = overrides.nodeId ?? randomUUID();
  const ctx: AppContext = {
    config,
    nodeId,
    logger,
    db,
    // Set below, once the stored storage choice can be read.
    blobs: overrides.blobs ?? (undefined as unknown as BlobStore),
    events: overrides.events ?? createBusFor(config, db, logger, nodeId),
    rateLimits: overrides.rateLimits ?? (config.redis ? await createRedisRateLimits(config.redis, logger) : createDbRateLimits(db)),
    mailer: overrides.mailer ?? (await createMailer(config, logger, () => storedMailConfig(ctx))),
    clock: overrides.clock ?? { now: () => new Date() },
  };
  if (!overrides.blobs) {
    const stored = config.storageSource === 'default' ? await storedStorage(ctx) : null;
    if (stored) ctx.config = { ...config, storage: stored };
    ctx.blobs = await createBlobStore(ctx.config, logger);
  }
  return ctx;
}

/** ioredis is loaded only with REDIS_URL. */
async function createRedisRateLimits(settings: { url: string; prefix: string }, logger: Logger): Promise<RateLimitStore> {
  const { createRedisRateLimits: create } = await import('./limits/redis-store.ts');
  return create(settings, logger);
}

/** One process on SQLite: the in-process bus. On PostgreSQL, other nodes may share the database: LISTEN/NOTIFY carries events between them. */
function createBusFor(config: Config, db: DB, logger: Logger, nodeId: string): EventBus {
  return config.database.dialect === 'postgres' ? createPostgresEventBus({ db, url: config.database.url, logger, nodeId }) : createEventBus();
}

/** The blob store STORAGE_DRIVER names: the data directory's disk, or an S3-compatible bucket. */
export async function createBlobStore(config: Config, logger: Logger): Promise<BlobStore> {
  const storage = config.storage;
  if (storage.driver === 'local') return createLocalBlobStore(path.join(config.dataDir, 'blobs'));
  // The AWS SDK is loaded only here (s3-store.ts): it adds about 35 MiB to a process that keeps blobs on its disk.
  const { createS3BlobStore } = await import('./blobs/s3-store.ts');
  return createS3BlobStore(storage, logger);
}
