import { Readable } from 'node:stream';
import { loadConfig } from '../../src/server/config/env.ts';
import { createContext, type AppContext } from '../../src/server/context.ts';
import { createFileItem, newBlobKey } from '../../src/server/files/service.ts';
import { findUserByEmail } from '../../src/server/users/queries.ts';

/** A second connection to the e2e server's own SQLite database and data dir, to seed through product code. */
export async function e2eContext(): Promise<AppContext> {
  const dataDir = process.env.E2E_DATA_DIR!;
  return createContext(await loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, dataDir));
}

/** Adds `count` small files to a user's folder, as uploads would (bytes first, then the row). */
export async function seedFiles(ctx: AppContext, email: string, parentId: string | null, count: number, prefix = 'file'): Promise<void> {
  const user = await findUserByEmail(ctx, email);
  if (!user) throw new Error(`no user ${email}`);
  for (let i = 0; i < count; i++) {
    const blobKey = newBlobKey(user.id);
    const stat = await ctx.blobs.put(blobKey, Readable.from([Buffer.from(`bytes of ${i}`)]));
    const name = `${prefix}-${String(i).padStart(5, '0')}.txt`;
    await createFileItem(ctx, { ownerId: user.id, parentId, name, mimetype: 'text/plain', size: stat.size, blobKey });
  }
}
