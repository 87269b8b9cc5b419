import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../../db/index.ts';
import { loadConfig } from '../../src/server/config/env.ts';
import { markInstalled } from '../../src/server/setup/state.ts';
import { startS3, type RunningS3 } from './s3.ts';
import { serverNodeFlags } from '../../scripts/node-flags.ts';

const SERVER_FLAGS = serverNodeFlags();

export type TestDb = 'sqlite' | 'postgres';
export type TestStorage = 'local' | 's3';

export interface RunningServer {
  url: string;
  dataDir: string;
  db: TestDb;
  databaseUrl: string | undefined;
  logs: string[];
  /** Stops the server, then drops its database and data dir. */
  stop(): Promise<void>;
  /** Ends the process at once (SIGKILL: no draining), keeping its database and data dir for a `reuse`. */
  kill(): Promise<void>;
  /** Drops the database and data dir (what `stop` does after the process is gone). */
  cleanup(): Promise<void>;
  port: number;
  /** The server process's id (a test may stop and continue it: SIGSTOP, SIGCONT). */
  pid: number;
  /** The storage variables the server runs with (STORAGE_DRIVER, S3_*): empty for the local disk. */
  storageEnv: Record<string, string>;
  /** With `storage: 's3'`: the S3 server of this server's bucket (stopped with it). */
  s3: RunningS3 | null;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Runs `work` with a client on the PostgreSQL server's admin database, closed afterwards. */
export async function withPgAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * Waits (2 s at most) until no session is connected to database `name`: a pool's end() resolves
 * before its sockets have closed, and a drop forced then would kill a closing connection, whose
 * FATAL would surface in the test process as an uncaught error; a template must have none at all.
 */
export async function untilDisconnected(admin: pg.Client, name: string): Promise<void> {
  for (let i = 0; i < 40; i += 1) {
    const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
    if (rows[0].n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The URL of database `name` on the test PostgreSQL server. */
export function pgUrlOf(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.href;
}

/**
 * A PostgreSQL database of its own for one server; dropped again by the returned function. Under
 * vitest it is a copy of the migrated template tests/support/pg-template.ts made once per run
 * (TEST_PG_TEMPLATE), and commits do not wait for the disk: the server process may be killed, the
 * PostgreSQL server is not, so no test loses a commit by it. `empty`: a database with no tables.
 */
export async function createPgDatabase({ empty = false }: { empty?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `cd_test_${randomBytes(6).toString('hex')}`;
  const template = empty ? undefined : process.env.TEST_PG_TEMPLATE;
  await withPgAdmin(async (admin) => {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
    if (template) await admin.query(`alter database ${name} set synchronous_commit = off`);
  });
  return {
    url: pgUrlOf(name),
    drop: () =>
      withPgAdmin(async (admin) => {
        await untilDisconnected(admin, name);
        await admin.query(`drop database if exists ${name} with (force)`);
      }),
  };
}

/**
 * Starts the built product (`node dist/host/main.mjs`, made by `npm run build`) on a free port with a fresh data dir and database;
 * with `reuse`, on a killed server's port, data dir and database (a restart), taking over its cleanup;
 * with `alongside` (or `join`), another app node on a running server's database, data dir and
 * storage, on a port of its own (its stop leaves them to that server's).
 */
export async function startServer(
  options: { db?: TestDb; env?: Record<string, string>; reuse?: RunningServer; alongside?: RunningServer; join?: RunningServer; installed?: boolean; storage?: TestStorage; ownDataDir?: boolean } = {},
): Promise<RunningServer> {
  const reuse = options.reuse;
  // A second app node: the first one's database, data dir and storage, on a port of its own; the first one cleans them up.
  const alongside = options.alongside ?? options.join;
  // `ownDataDir`: a node alongside with a data dir of its own (another machine), removed by its own cleanup.
  const sharedDir = alongside && !options.ownDataDir ? alongside.dataDir : undefined;
  // TEST_STORAGE=s3 runs a suite's servers on S3 (an s3rver each); the default is the local disk.
  const storage = options.storage ?? ((process.env.TEST_STORAGE as TestStorage | undefined) ?? 'local');
  const s3 = reuse ? reuse.s3 : alongside ? null : storage === 's3' ? await startS3() : null;
  const storageEnv = alongside?.storageEnv ?? s3?.env ?? {};
  const db = reuse?.db ?? alongside?.db ?? options.db ?? ((process.env.TEST_DB as TestDb | undefined) ?? 'sqlite');
  const dataDir = reuse?.dataDir ?? sharedDir ?? (await mkdtemp(path.join(os.tmpdir(), 'cd-test-')));
  let port = reuse?.port ?? (await freePort());
  const pgDb = reuse
    ? reuse.databaseUrl
      ? { url: reuse.databaseUrl, drop: () => reuse.cleanup() }
      : null
    : alongside
      ? alongside.databaseUrl
        ? { url: alongside.databaseUrl, drop: async () => {} }
        : null
      : db === 'postgres'
        ? await createPgDatabase()
        : null;
  // Tests get an installed instance unless they ask for a fresh one (the setup wizard's tests).
  if (!reuse && !alongside && options.installed !== false) await markDataInstalled(dataDir, pgDb?.url);
  const logs: string[] = [];
  const cleanup = async () => {
    // TEST_SERVER_LOGS=1 prints what the server logged, warnings and errors, when it goes.
    if (process.env.TEST_SERVER_LOGS) console.log(logs.filter((l) => !l.includes('"level":30')).join('\n'));
    await pgDb?.drop();
    await s3?.stop();
    if (!sharedDir) await rm(dataDir, { recursive: true, force: true });
  };
  const launch = () => {
    const url = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      MAIL_DRIVER: 'log',
      TRUST_PROXY: '1',
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
      ...storageEnv,
      ...options.env,
    };
    // The test runner's options are not the server's; a caller may still pass its own (a profile).
    if (!options.env?.NODE_OPTIONS) delete env.NODE_OPTIONS;
    // The V8 flags `npm start` runs with (package.json): tests and benchmarks measure the same process.
    const child = spawn(process.execPath, [...SERVER_FLAGS, 'dist/host/main.mjs'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { url, child, exited };
  };
  let { url, child, exited } = launch();
  for (let attempt = 1; ; attempt += 1) {
    try {
      await waitForListening(child, logs, exited);
      break;
    } catch (error) {
      // A server that would not start (a test of a refused configuration) leaves nothing behind.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      // Another process took the free port between freePort() and the server's listen: a new one
      // (a restart keeps its port, and a port the caller chose is not ours to change).
      if (!reuse && !options.env?.PORT && attempt < 5 && logs.some((line) => line.includes('EADDRINUSE'))) {
        logs.length = 0;
        port = await freePort();
        ({ url, child, exited } = launch());
        continue;
      }
      if (!reuse) await cleanup();
      throw error;
    }
  }
  return {
    url,
    port,
    pid: child.pid!,
    dataDir,
    db,
    databaseUrl: pgDb?.url,
    storageEnv,
    s3,
    logs,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await cleanup();
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
    cleanup,
  };
}

/** Migrates the new server's database and marks it installed, as the setup wizard would have. */
async function markDataInstalled(dataDir: string, databaseUrl: string | undefined): Promise<void> {
  const config = await loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }, dataDir);
  const db = await openDatabase(config.database);
  try {
    await migrateToLatest(db);
    await markInstalled(db);
  } finally {
    await db.destroy();
  }
}

async function waitForListening(child: ChildProcess, logs: string[], exited: Promise<number | null>): Promise<void> {
  const collect = (stream: NodeJS.ReadableStream) => createInterface({ input: stream }).on('line', (line) => logs.push(line));
  collect(child.stderr!);
  const lines = createInterface({ input: child.stdout! });
  const listening = new Promise<void>((resolve) => {
    lines.on('line', (line) => {
      logs.push(line);
      if (line.includes('"msg":"listening"')) resolve();
    });
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`server did not start:\n${logs.join('\n')}`)), 30_000);
  });
  const died = exited.then((code) => {
    throw new Error(`server exited with ${code}:\n${logs.join('\n')}`);
  });
  try {
    await Promise.race([listening, timeout, died]);
  } finally {
    clearTimeout(timer);
    died.catch(() => {}); // the server exits later, on stop(): not an error then
  }
}
