import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { S3Settings } from '../blobs/s3-store.ts';
import { FAULTS, type Fault } from '../faults.ts';

const flag = z.enum(['0', '1', 'true', 'false']);
const isOn = (value: z.infer<typeof flag>) => value === '1' || value === 'true';
/** S3's bucket naming rules (the DNS-compatible ones every S3-compatible server accepts). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Every environment variable the product reads, validated once at boot. README lists the same set. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  APP_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .refine((v) => /^(postgres|postgresql):\/\//.test(v) || /^(sqlite:|file:)?[^:]+$/.test(v), 'must be a postgres:// URL or a SQLite file path')
    .optional(),
  TRUST_PROXY: flag.default('0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MAIL_DRIVER: z.enum(['smtp', 'mailgun', 'ses', 'postmark', 'log']).default('log'),
  MAIL_HOST: z.string().default('127.0.0.1'),
  MAIL_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  MAIL_USERNAME: z.string().default(''),
  MAIL_PASSWORD: z.string().default(''),
  MAIL_ENCRYPTION: z.enum(['tls', 'ssl', 'none']).default('tls'),
  MAIL_FROM_ADDRESS: z.email().default('no-reply@localhost.localdomain'),
  MAIL_FROM_NAME: z.string().default('Cloud Drive'),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  ADMIN_NAME: z.string().min(1).max(120).default('Admin'),
  APP_NAME: z.string().trim().min(1).max(60).optional(),
  UPLOAD_EXPIRY_SECONDS: z.coerce.number().int().min(1).default(24 * 60 * 60),
  UPLOAD_SWEEP_SECONDS: z.coerce.number().int().min(1).default(5 * 60),
  BLOB_RECONCILE_SECONDS: z.coerce.number().int().min(1).default(24 * 60 * 60),
  BLOB_ORPHAN_GRACE_SECONDS: z.coerce.number().int().min(0).default(60 * 60),
  TRASH_PURGE_SECONDS: z.coerce.number().int().min(1).default(60 * 60),
  THUMBNAIL_CATCHUP_SECONDS: z.coerce.number().int().min(1).default(5 * 60),
  // The live event stream (GET /api/events): a comment line this often keeps proxies from closing it.
  EVENTS_HEARTBEAT_MS: z.coerce.number().int().min(50).max(600_000).default(25_000),
  EVENTS_MAX_STREAMS: z.coerce.number().int().min(1).max(100).default(5),
  // The instance secret that secrets stored in the settings are encrypted with (src/server/settings/secrets.ts).
  APP_KEY: z.string().min(32, 'must be at least 32 characters (e.g. `openssl rand -base64 32`)').optional(),
  // The bot check's provider (src/server/auth/bot-check.ts): the verification endpoint over the
  // recaptcha_verify_url setting, and the browser script (its origin joins the sign-in pages' CSP).
  BOT_CHECK_VERIFY_URL: z.url({ protocol: /^https?$/ }).optional(),
  BOT_CHECK_SCRIPT_URL: z.url({ protocol: /^https?$/ }).optional(),
  // Social sign-in: replaces the origin of the provider's endpoints (tests point them at a local fake).
  OAUTH_GOOGLE_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  OAUTH_GITHUB_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  OAUTH_FACEBOOK_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  OAUTH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  // Payment providers' API origins (src/server/billing/gateways/): tests point them at local fakes.
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  PAYSTACK_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  PAYPAL_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  // Where blobs live: the data directory's disk, or an S3-compatible bucket (src/server/blobs/s3-store.ts).
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().regex(/^[a-z0-9-]{2,40}$/, 'must be a region name such as us-east-1').default('us-east-1'),
  S3_BUCKET: z.string().regex(BUCKET, 'must be a bucket name: 3-63 lowercase letters, digits, dots and hyphens').optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: flag.default('false'),
  S3_CHECKSUMS: z.enum(['when_supported', 'when_required']).default('when_supported'),
  // Rate limits, budgets and password back-off in Redis instead of the database (limits/redis-store.ts).
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1-64 letters, digits, colons, dots, dashes or underscores').default('cloud-drive:'),
  // GET /metrics (src/server/metrics/): off unless set; then scrapes send `Authorization: Bearer <token>`.
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters (e.g. `openssl rand -hex 24`)').optional(),
  // On SIGTERM, /readyz fails at once but requests are still served this long before the drain
  // begins, so a load balancer that probes readiness takes the node out before its port closes.
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().int().min(0).max(300).default(0),
  // Test-only: names a crash point (src/server/faults.ts) at which the process kills itself.
  CLOUD_DRIVE_FAULT: z.enum(FAULTS).optional(),
}).superRefine((env, issues) => {
  if (env.STORAGE_DRIVER !== 's3') return;
  if (!env.S3_BUCKET) issues.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when STORAGE_DRIVER=s3' });
  if (env.S3_ACCESS_KEY_ID && !env.S3_SECRET_ACCESS_KEY) issues.addIssue({ code: 'custom', path: ['S3_SECRET_ACCESS_KEY'], message: 'is required with S3_ACCESS_KEY_ID' });
  if (!env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY) issues.addIssue({ code: 'custom', path: ['S3_ACCESS_KEY_ID'], message: 'is required with S3_SECRET_ACCESS_KEY' });
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  port: number;
  host: string;
  appUrl: URL;
  secureCookies: boolean;
  dataDir: string;
  database: { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };
  /** Where the database choice came from: DATABASE_URL, the setup wizard's DATA_DIR/database.url, or the default. */
  databaseSource: 'env' | 'data-dir' | 'default';
  /** Behind one reverse proxy: the client address is the last X-Forwarded-For entry. */
  trustProxy: boolean;
  logLevel: Env['LOG_LEVEL'];
  mail: {
    driver: Env['MAIL_DRIVER'];
    host: string;
    port: number;
    username: string;
    password: string;
    encryption: Env['MAIL_ENCRYPTION'];
    from: { address: string; name: string };
  };
  bootstrapAdmin: { email: string; password: string; name: string } | null;
  /** APP_NAME: the app name an unattended first start (ADMIN_EMAIL + ADMIN_PASSWORD) installs with. */
  bootstrapAppName: string | null;
  uploads: {
    /** An unfinished tus upload is removed this long after it was created. */
    expiryMs: number;
    /** How often the expiry sweep runs (it also runs at boot). */
    sweepMs: number;
  };
  blobs: {
    /** How often the blob reconciler runs (it also runs at boot). */
    reconcileMs: number;
    /** An unreferenced blob younger than this is left alone: its row may be about to commit. */
    orphanGraceMs: number;
  };
  /** How often the trash retention purge is due (TRASH_PURGE_SECONDS; it also runs at start). */
  trashPurgeMs: number;
  /** How often the thumbnail catch-up is due (THUMBNAIL_CATCHUP_SECONDS; it also runs at start). */
  thumbnailCatchUpMs: number;
  /** Where blobs live (STORAGE_DRIVER and S3_*): DATA_DIR/blobs, or an S3-compatible bucket. */
  storage: { driver: 'local' } | ({ driver: 's3' } & S3Settings);
  /** 'env': STORAGE_DRIVER is set and wins; 'default': unset, so the storage the setup wizard stored (if any) is used (context.ts). */
  storageSource: 'env' | 'default';
  /** APP_KEY: the instance secret; null uses (and creates) DATA_DIR/instance.key. */
  appKey: string | null;
  /** The live event stream: heartbeat interval, and open streams per user (per process). */
  events: { heartbeatMs: number; maxStreams: number };
  /** The bot check's provider endpoints set in the environment (BOT_CHECK_*); null keeps the setting and Google's script. */
  botCheck: { verifyUrl: string | null; scriptUrl: string | null };
  /** OAUTH_*_BASE_URL: where each social sign-in provider's endpoints live instead of the real ones (null: the real ones). */
  oauthBaseUrls: { google: string | null; github: string | null; facebook: string | null };
  /** OAUTH_TIMEOUT_MS: how long a social sign-in waits for the provider's token and profile answers. */
  oauthTimeoutMs: number;
  /** STRIPE_API_BASE, PAYSTACK_API_BASE, PAYPAL_API_BASE: the providers' API origins (defaults: the real ones). */
  paymentApiBases: { stripe: string; paystack: string; paypal: string };
  /** METRICS_TOKEN: the bearer token of GET /metrics; null switches metrics off (prom-client is never loaded). */
  metricsToken: string | null;
  /** REDIS_URL and REDIS_PREFIX: rate limits in Redis; null keeps them in the database. */
  redis: { url: string; prefix: string } | null;
  /** SHUTDOWN_DELAY_SECONDS: how long after SIGTERM the server keeps serving (readiness failing) before it drains. */
  shutdownDelayMs: number;
  /** Test-only fault injection (CLOUD_DRIVE_FAULT); null in production. */
  fault: Fault | null;
}

export class ConfigError extends Error {}

/** Reads `.env` (if present) under the process environment, then validates. Throws ConfigError naming each bad variable. */
export async function loadConfig(source: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<Config> {
  const envFile = path.join(cwd, '.env');
  let merged: Record<string, string | undefined> = { ...source };
  if (source === process.env && existsSync(envFile)) {
    const { parse } = await import('dotenv');
    const { readFile } = await import('node:fs/promises');
    merged = { ...parse(await readFile(envFile)), ...source };
  }
  // Empty strings mean "unset", as in most .env conventions.
  const cleaned = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return toConfig(parsed.data, cwd, 'STORAGE_DRIVER' in cleaned ? 'env' : 'default');
}

function toConfig(env: Env, cwd: string, storageSource: Config['storageSource']): Config {
  const dataDir = path.resolve(cwd, env.DATA_DIR);
  const appUrl = new URL(env.APP_URL ?? `http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${env.PORT}`);
  const stored = env.DATABASE_URL ? undefined : readStoredDatabaseUrl(dataDir);
  const url = env.DATABASE_URL ?? stored;
  const database: Config['database'] =
    url && /^postgres(ql)?:\/\//.test(url)
      ? { dialect: 'postgres', url }
      : { dialect: 'sqlite', file: url ? path.resolve(cwd, url.replace(/^(sqlite|file):/, '')) : path.join(dataDir, 'database.sqlite') };
  return {
    port: env.PORT,
    host: env.HOST,
    appUrl,
    secureCookies: appUrl.protocol === 'https:',
    dataDir,
    database,
    databaseSource: env.DATABASE_URL ? 'env' : stored ? 'data-dir' : 'default',
    trustProxy: isOn(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL,
    mail: {
      driver: env.MAIL_DRIVER,
      host: env.MAIL_HOST,
      port: env.MAIL_PORT,
      username: env.MAIL_USERNAME,
      password: env.MAIL_PASSWORD,
      encryption: env.MAIL_ENCRYPTION,
      from: { address: env.MAIL_FROM_ADDRESS, name: env.MAIL_FROM_NAME },
    },
    bootstrapAdmin: env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD, name: env.ADMIN_NAME } : null,
    bootstrapAppName: env.APP_NAME ?? null,
    uploads: { expiryMs: env.UPLOAD_EXPIRY_SECONDS * 1000, sweepMs: env.UPLOAD_SWEEP_SECONDS * 1000 },
    blobs: { reconcileMs: env.BLOB_RECONCILE_SECONDS * 1000, orphanGraceMs: env.BLOB_ORPHAN_GRACE_SECONDS * 1000 },
    trashPurgeMs: env.TRASH_PURGE_SECONDS * 1000,
    thumbnailCatchUpMs: env.THUMBNAIL_CATCHUP_SECONDS * 1000,
    storage: storageOf(env),
    storageSource,
    appKey: env.APP_KEY ?? null,
    events: { heartbeatMs: env.EVENTS_HEARTBEAT_MS, maxStreams: env.EVENTS_MAX_STREAMS },
    botCheck: { verifyUrl: env.BOT_CHECK_VERIFY_URL ?? null, scriptUrl: env.BOT_CHECK_SCRIPT_URL ?? null },
    oauthBaseUrls: { google: env.OAUTH_GOOGLE_BASE_URL ?? null, github: env.OAUTH_GITHUB_BASE_URL ?? null, facebook: env.OAUTH_FACEBOOK_BASE_URL ?? null },
    oauthTimeoutMs: env.OAUTH_TIMEOUT_MS,
    paymentApiBases: {
      stripe: env.STRIPE_API_BASE ?? 'https://api.stripe.com',
      paystack: env.PAYSTACK_API_BASE ?? 'https://api.paystack.co',
      paypal: env.PAYPAL_API_BASE ?? 'https://api-m.paypal.com',
    },
    metricsToken: env.METRICS_TOKEN ?? null,
    redis: env.REDIS_URL ? { url: env.REDIS_URL, prefix: env.REDIS_PREFIX } : null,
    shutdownDelayMs: env.SHUTDOWN_DELAY_SECONDS * 1000,
    fault: env.CLOUD_DRIVE_FAULT ?? null,
  };
}

function storageOf(env: Env): Config['storage'] {
  if (env.STORAGE_DRIVER === 'local') return { driver: 'local' };
  return {
    driver: 's3',
    endpoint: env.S3_ENDPOINT ?? null,
    region: env.S3_REGION,
    bucket: env.S3_BUCKET!,
    credentials: env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } : null,
    forcePathStyle: isOn(env.S3_FORCE_PATH_STYLE),
    checksums: env.S3_CHECKSUMS,
  };
}

/** The file the setup wizard (or `npm run setup -- --database-url`) writes the chosen PostgreSQL URL to. */
export const storedDatabaseUrlFile = (dataDir: string) => path.join(dataDir, 'database.url');

function readStoredDatabaseUrl(dataDir: string): string | undefined {
  const file = storedDatabaseUrlFile(dataDir);
  if (!existsSync(file)) return undefined;
  const url = readFileSync(file, 'utf8').trim();
  if (!/^postgres(ql)?:\/\//.test(url)) throw new ConfigError(`Invalid configuration:\n  ${file}: must hold a postgres:// URL`);
  return url;
}
