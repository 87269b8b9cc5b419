import { sql } from 'kysely';
import type { Db, ItemRow } from './queries.ts';
import { chunks, yieldToOthers } from './sets.ts';

/**
 * Where trashed items were: the folder they sit in (`parent_id` is kept when an item goes to the
 * trash; restore puts it back there), as a path from home. That folder cannot be gone for good
 * while something trashed still names it (the parent foreign key has no cascade, and deleting a
 * folder for good deletes everything below it), but it can be in the trash itself: restoring then
 * brings the item home, and `in_trash` says so.
 */
export interface OriginalLocation {
  /** The folders from home down to the item's folder; empty at home. */
  path: { id: string; name: string }[];
  /** The item's folder is in the trash too (restoring the item alone puts it home). */
  in_trash: boolean;
}

const HOME: OriginalLocation = { path: [], in_trash: false };

/**
 * Each item's original location, for a page of items: one recursive walk up from their folders
 * (up to 500 at a time), not a query per item or per ancestor.
 */
export async function originalLocations(db: Db, items: Pick<ItemRow, 'id' | 'parent_id'>[]): Promise<Map<string, OriginalLocation>> {
  const folders = new Map<string, { chain: { id: string; name: string; deleted: boolean }[] }>();
  const parentIds = [...new Set(items.flatMap((i) => (i.parent_id ? [i.parent_id] : [])))];
  for (const part of chunks(parentIds)) {
    const { rows } = await sql<{ start: string; id: string; name: string; deleted_at: string | null }>`
      with recursive up(start, id, parent_id, name, deleted_at, depth) as (
        select id, id, parent_id, name, deleted_at, 0 from items where id in (${sql.join(part)})
        union all
        select up.start, items.id, items.parent_id, items.name, items.deleted_at, up.depth + 1 from items join up on items.id = up.parent_id
      )
      select start, id, name, deleted_at from up order by start, depth desc`.execute(db);
    for (const row of rows) {
      const folder = folders.get(row.start) ?? { chain: [] };
      folder.chain.push({ id: row.id, name: row.name, deleted: row.deleted_at !== null });
      folders.set(row.start, folder);
    }
    await yieldToOthers();
  }
  const out = new Map<string, OriginalLocation>();
  for (const item of items) {
    const folder = item.parent_id ? folders.get(item.parent_id) : undefined;
    if (!folder) {
      out.set(item.id, HOME);
      continue;
    }
    out.set(item.id, { path: folder.chain.map(({ id, name }) => ({ id, name })), in_trash: folder.chain.at(-1)!.deleted });
  }
  return out;
}
