import { Readable } from 'node:stream';
import type { User } from '../../src/server/auth/sessions.ts';
import { loadConfig } from '../../src/server/config/env.ts';
import { createContext, type AppContext } from '../../src/server/context.ts';
import { createFileItem, createFolder, newBlobKey } from '../../src/server/files/service.ts';
import { findUserById } from '../../src/server/users/queries.ts';
import { afterAll, beforeAll } from 'vitest';
import { startServer, type RunningServer } from './server.ts';

/**
 * Seeds folders and files through product code, on the running test server's own database, data
 * dir and blob store (a second connection; SQLite is in WAL mode). Close it with `ctx.db.destroy()`.
 */
export async function seedContext(server: RunningServer): Promise<AppContext> {
  const config = await loadConfig({ DATA_DIR: server.dataDir, LOG_LEVEL: 'silent', ...(server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {}), ...server.storageEnv }, server.dataDir);
  // Strictly increasing timestamps, so orderings by creation time are deterministic in tests.
  let last = 0;
  const clock = { now: () => new Date((last = Math.max(Date.now(), last + 1))) };
  return createContext(config, { clock });
}

/** Runs `work` with a second connection to the server's database, closed afterwards. */
export async function withSeed<T>(server: RunningServer, work: (seed: AppContext) => Promise<T>): Promise<T> {
  const seed = await seedContext(server);
  try {
    return await work(seed);
  } finally {
    await seed.db.destroy();
  }
}

export async function userById(ctx: AppContext, id: string): Promise<User> {
  const user = await findUserById(ctx, id);
  if (!user) throw new Error(`no user ${id}`);
  return user;
}

export async function seedFolder(ctx: AppContext, userId: string, name: string, parentId: string | null = null): Promise<string> {
  return (await createFolder(ctx, await userById(ctx, userId), { name, parent_id: parentId })).id;
}

/** Writes the bytes to the blob store first, then records the file, as an upload does. */
export async function seedFile(
  ctx: AppContext,
  userId: string,
  file: { name: string; parentId?: string | null; mimetype?: string; content?: string | Buffer },
): Promise<{ id: string; name: string; blobKey: string }> {
  const bytes = Buffer.from(file.content ?? `content of ${file.name}`);
  const blobKey = newBlobKey(userId);
  const stat = await ctx.blobs.put(blobKey, Readable.from([bytes]));
  const item = await createFileItem(ctx, { ownerId: userId, parentId: file.parentId ?? null, name: file.name, mimetype: file.mimetype ?? 'application/octet-stream', size: stat.size, blobKey });
  return { id: item.id, name: item.name, blobKey };
}

/** One server per test file plus a seeding context on its database, both closed after the file. */
export function useSeededServer(): { server: RunningServer; seed: AppContext } {
  const env = {} as { server: RunningServer; seed: AppContext };
  beforeAll(async () => {
    env.server = await startServer();
    env.seed = await seedContext(env.server);
  });
  afterAll(async () => {
    await env.seed?.db.destroy();
    await env.server?.stop();
  });
  return env;
}
