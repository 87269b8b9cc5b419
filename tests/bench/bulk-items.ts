// Bulk seeding for the benchmarks: item rows written straight into the database in multi-row
// INSERTs inside transactions, so a million-item account takes minutes, not hours. Not product code:
// no blobs are written (the browse benchmark reads listings, never bytes) and the owner's usage is
// set once at the end. The search index follows through its triggers (SQLite) or its GIN index.
import { randomUUID } from 'node:crypto';
import { sql, SqliteAdapter, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { nameKey } from '../../src/server/files/names.ts';

export interface BulkItem {
  id?: string;
  parentId: string | null;
  type: 'folder' | 'file';
  name: string;
  mimetype?: string;
  size?: number;
}

/** Rows per INSERT (15 columns: well under SQLite's bound variables) and INSERTs per transaction. */
const ROWS = 500;
const PER_TRANSACTION = 200;

/** Inserts the items for `ownerId` in the given order (parents before children), with strictly increasing timestamps. Returns their ids. */
export async function bulkInsertItems(db: Kysely<Database>, ownerId: string, items: BulkItem[]): Promise<string[]> {
  let clock = Date.now();
  const rows = items.map((item) => {
    const at = new Date((clock += 1)).toISOString();
    return {
      id: item.id ?? randomUUID(),
      owner_id: ownerId,
      parent_id: item.parentId,
      type: item.type,
      name: item.name,
      name_key: nameKey(item.name),
      color: null,
      emoji: null,
      mimetype: item.type === 'file' ? (item.mimetype ?? 'application/octet-stream') : null,
      size: item.type === 'file' ? (item.size ?? 1) : 0,
      blob_key: item.type === 'file' ? `bench/${randomUUID()}` : null,
      created_at: at,
      updated_at: at,
      deleted_at: null,
      deleted_with: null,
    };
  });
  // SQLite: a page cache large enough that a transaction writes each page it changed once (the
  // search index's pages are changed by every row), instead of spilling them to the WAL again and again.
  if (db.getExecutor().adapter instanceof SqliteAdapter) await sql`pragma cache_size = -1048576`.execute(db);
  for (let i = 0; i < rows.length; i += ROWS * PER_TRANSACTION) {
    await db.transaction().execute(async (tx) => {
      for (let j = i; j < Math.min(rows.length, i + ROWS * PER_TRANSACTION); j += ROWS) await tx.insertInto('items').values(rows.slice(j, j + ROWS)).execute();
    });
  }
  const bytes = rows.reduce((sum, r) => sum + r.size, 0);
  await db.updateTable('users').set({ storage_used_bytes: sql`storage_used_bytes + ${bytes}` }).where('id', '=', ownerId).execute();
  return rows.map((r) => r.id);
}
