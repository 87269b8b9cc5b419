import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Each folder's number of items outside the trash, kept by triggers, so a listing's folders (and
// the open folder itself) show their `items` figure without counting: counting the children of a
// 10,000-item folder cost more than reading the page of 200 rows it was shown with. Every write to
// items (product code, bulk SQL, a restore of a backup) keeps it, in the same transaction. Trash
// listings still count the trashed children when asked (files/queries.ts withCounts).
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('items').addColumn('live_children', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update items set live_children = (select count(*) from items c where c.parent_id = items.id and c.deleted_at is null) where type = 'folder'`.execute(db);
  if (isSqlite(db)) {
    await sql`create trigger items_count_insert after insert on items when new.parent_id is not null and new.deleted_at is null begin
      update items set live_children = live_children + 1 where id = new.parent_id;
    end`.execute(db);
    await sql`create trigger items_count_delete after delete on items when old.parent_id is not null and old.deleted_at is null begin
      update items set live_children = live_children - 1 where id = old.parent_id;
    end`.execute(db);
    await sql`create trigger items_count_update after update of parent_id, deleted_at on items
      when old.parent_id is not new.parent_id or (old.deleted_at is null) <> (new.deleted_at is null) begin
      update items set live_children = live_children - 1 where id = old.parent_id and old.deleted_at is null;
      update items set live_children = live_children + 1 where id = new.parent_id and new.deleted_at is null;
    end`.execute(db);
    return;
  }
  await sql`create function items_count_children() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') and old.parent_id is not null and old.deleted_at is null then
        update items set live_children = live_children - 1 where id = old.parent_id;
      end if;
      if tg_op in ('UPDATE', 'INSERT') and new.parent_id is not null and new.deleted_at is null then
        update items set live_children = live_children + 1 where id = new.parent_id;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger items_count_children after insert or delete or update of parent_id, deleted_at on items
    for each row execute function items_count_children()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    for (const trigger of ['items_count_insert', 'items_count_delete', 'items_count_update']) await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  } else {
    await sql`drop trigger if exists items_count_children on items`.execute(db);
    await sql`drop function if exists items_count_children()`.execute(db);
  }
  await db.schema.alterTable('items').dropColumn('live_children').execute();
}
