import { sql, SqliteAdapter, type Kysely } from 'kysely';

// The admin's user list: when each account last signed in, and how many bytes it stores, kept on
// the user row so the list can sort 100,000 accounts by either through an index.
//
// storage_used_bytes is what src/server/files/storage.ts sums (every file, the trash included),
// kept in step by triggers on items rather than by the code that writes items: every path that
// adds, removes or resizes a file (uploads, purges, account deletion, a seed, a future feature)
// moves the counter in the same statement, so it cannot drift. Sorting by a SUM subquery instead
// would read every item of every user for each page.
// SQLite: row triggers (an update of one row in place). PostgreSQL: statement triggers over the
// transition table for inserts and deletes, so a purge of 500 rows updates each owner once, not
// 500 times (each update there is a new row version and index entry); a row trigger for the rare
// update that changes a file's size, owner or type.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('last_signed_in_at', 'text').execute();
  await db.schema.alterTable('users').addColumn('storage_used_bytes', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update users set storage_used_bytes = coalesce((select sum(size) from items where items.owner_id = users.id and items.type = 'file'), 0)`.execute(db);

  if (isSqlite(db)) {
    await sql`create trigger items_storage_insert after insert on items when new.type = 'file' and new.size <> 0 begin
      update users set storage_used_bytes = storage_used_bytes + new.size where id = new.owner_id;
    end`.execute(db);
    await sql`create trigger items_storage_delete after delete on items when old.type = 'file' and old.size <> 0 begin
      update users set storage_used_bytes = storage_used_bytes - old.size where id = old.owner_id;
    end`.execute(db);
    await sql`create trigger items_storage_update after update of size, owner_id, type on items
      when old.size <> new.size or old.owner_id <> new.owner_id or old.type <> new.type begin
      update users set storage_used_bytes = storage_used_bytes - old.size where id = old.owner_id and old.type = 'file';
      update users set storage_used_bytes = storage_used_bytes + new.size where id = new.owner_id and new.type = 'file';
    end`.execute(db);
  } else {
    await sql`create function items_storage_added() returns trigger language plpgsql as $$
      begin
        update users u set storage_used_bytes = u.storage_used_bytes + s.bytes
          from (select owner_id, sum(size) as bytes from added where type = 'file' group by owner_id) s
          where u.id = s.owner_id and s.bytes <> 0;
        return null;
      end $$`.execute(db);
    await sql`create function items_storage_removed() returns trigger language plpgsql as $$
      begin
        update users u set storage_used_bytes = u.storage_used_bytes - s.bytes
          from (select owner_id, sum(size) as bytes from removed where type = 'file' group by owner_id) s
          where u.id = s.owner_id and s.bytes <> 0;
        return null;
      end $$`.execute(db);
    await sql`create function items_storage_changed() returns trigger language plpgsql as $$
      begin
        if old.type = 'file' then update users set storage_used_bytes = storage_used_bytes - old.size where id = old.owner_id; end if;
        if new.type = 'file' then update users set storage_used_bytes = storage_used_bytes + new.size where id = new.owner_id; end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger items_storage_insert after insert on items referencing new table as added for each statement execute function items_storage_added()`.execute(db);
    await sql`create trigger items_storage_delete after delete on items referencing old table as removed for each statement execute function items_storage_removed()`.execute(db);
    await sql`create trigger items_storage_update after update of size, owner_id, type on items for each row
      when (old.size is distinct from new.size or old.owner_id is distinct from new.owner_id or old.type is distinct from new.type)
      execute function items_storage_changed()`.execute(db);
  }

  // The list's search (a part of the name or email, src/server/admin/users/queries.ts), as the
  // spotlight's (migration 20261124150000_search): on SQLite an FTS5 trigram table kept in step by
  // triggers, its rowids from users_search; on PostgreSQL pg_trgm GIN indexes that LIKE uses as it
  // is, when the extension is there (the search works, unindexed, without it).
  if (isSqlite(db)) {
    await sql`create table users_search (id integer primary key, user_id text not null unique)`.execute(db);
    await sql`create virtual table users_fts using fts5(name, email, tokenize = 'trigram')`.execute(db);
    await sql`insert into users_search (user_id) select id from users`.execute(db);
    await sql`insert into users_fts (rowid, name, email) select s.id, u.name, u.email from users_search s join users u on u.id = s.user_id`.execute(db);
    await sql`create trigger users_search_insert after insert on users begin
      insert into users_search (user_id) values (new.id);
      insert into users_fts (rowid, name, email) select id, new.name, new.email from users_search where user_id = new.id;
    end`.execute(db);
    await sql`create trigger users_search_update after update of name, email on users begin
      update users_fts set name = new.name, email = new.email where rowid = (select id from users_search where user_id = new.id);
    end`.execute(db);
    await sql`create trigger users_search_delete after delete on users begin
      delete from users_fts where rowid = (select id from users_search where user_id = old.id);
      delete from users_search where user_id = old.id;
    end`.execute(db);
  } else {
    const { rows } = await sql<{ ok: boolean }>`select exists (select 1 from pg_extension where extname = 'pg_trgm') as ok`.execute(db);
    if (rows[0]?.ok) {
      await sql`create index users_name_trgm on users using gin ((lower(name)) gin_trgm_ops)`.execute(db);
      await sql`create index users_email_trgm on users using gin (email gin_trgm_ops)`.execute(db);
    }
  }

  // One index per sort of the list, each ending in id: a page is a seek to the cursor's row value
  // and a walk of `limit` entries, in either direction (src/server/admin/users/queries.ts).
  await sql`create index users_sort_name on users ((lower(name)), id)`.execute(db);
  await db.schema.createIndex('users_sort_email').on('users').columns(['email', 'id']).execute();
  await db.schema.createIndex('users_sort_created').on('users').columns(['created_at', 'id']).execute();
  await sql`create index users_sort_last_sign_in on users ((coalesce(last_signed_in_at, '')), id)`.execute(db);
  await db.schema.createIndex('users_sort_storage').on('users').columns(['storage_used_bytes', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['users_sort_name', 'users_sort_email', 'users_sort_created', 'users_sort_last_sign_in', 'users_sort_storage']) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  if (isSqlite(db)) {
    for (const trigger of ['items_storage_insert', 'items_storage_delete', 'items_storage_update', 'users_search_insert', 'users_search_update', 'users_search_delete']) {
      await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
    }
    await sql`drop table if exists users_fts`.execute(db);
    await sql`drop table if exists users_search`.execute(db);
  } else {
    await sql`drop index if exists users_name_trgm`.execute(db);
    await sql`drop index if exists users_email_trgm`.execute(db);
    for (const trigger of ['items_storage_insert', 'items_storage_delete', 'items_storage_update']) await sql`drop trigger if exists ${sql.id(trigger)} on items`.execute(db);
    for (const fn of ['items_storage_added', 'items_storage_removed', 'items_storage_changed']) await sql`drop function if exists ${sql.id(fn)}()`.execute(db);
  }
  await db.schema.alterTable('users').dropColumn('storage_used_bytes').execute();
  await db.schema.alterTable('users').dropColumn('last_signed_in_at').execute();
}
