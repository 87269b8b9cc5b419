import { sql, SqliteAdapter, type Kysely } from 'kysely';

// An index for the spotlight's substring search over item names (name_key LIKE '%needle%'), which
// otherwise reads every one of the owner's names.
//
// SQLite: an FTS5 table with the trigram tokenizer, kept in step with items by triggers. Its rowids
// come from items_search, whose INTEGER PRIMARY KEY survives VACUUM (items' own implicit rowid
// may not, so it cannot be the link).
// PostgreSQL: a pg_trgm GIN index, which LIKE uses as it is; created only where the extension is
// available to this database user, and the search works (unindexed) without it.
const isSqlite = (db: Kysely<any>) => db.getExecutor().adapter instanceof SqliteAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    await sql`create table items_search (id integer primary key, item_id text not null unique)`.execute(db);
    await sql`create virtual table items_fts using fts5(name_key, tokenize = 'trigram')`.execute(db);
    await sql`insert into items_search (item_id) select id from items`.execute(db);
    await sql`insert into items_fts (rowid, name_key) select s.id, i.name_key from items_search s join items i on i.id = s.item_id`.execute(db);
    await sql`create trigger items_search_insert after insert on items begin
      insert into items_search (item_id) values (new.id);
      insert into items_fts (rowid, name_key) select id, new.name_key from items_search where item_id = new.id;
    end`.execute(db);
    await sql`create trigger items_search_rename after update of name_key on items begin
      update items_fts set name_key = new.name_key where rowid = (select id from items_search where item_id = new.id);
    end`.execute(db);
    await sql`create trigger items_search_delete after delete on items begin
      delete from items_fts where rowid = (select id from items_search where item_id = old.id);
      delete from items_search where item_id = old.id;
    end`.execute(db);
    return;
  }
  const { rows } = await sql<{ ok: boolean }>`
    select exists (select 1 from pg_extension where extname = 'pg_trgm')
        or (exists (select 1 from pg_available_extensions where name = 'pg_trgm')
            and ((select rolsuper from pg_roles where rolname = current_user)
                 -- pg_trgm is a trusted extension from PostgreSQL 13: a user who may create in the database may add it.
                 or (current_setting('server_version_num')::int >= 130000 and has_database_privilege(current_database(), 'CREATE')))) as ok`.execute(db);
  if (!rows[0]?.ok) return;
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index items_name_trgm on items using gin (name_key gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    for (const trigger of ['items_search_insert', 'items_search_rename', 'items_search_delete']) await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
    await sql`drop table if exists items_fts`.execute(db);
    await sql`drop table if exists items_search`.execute(db);
    return;
  }
  await sql`drop index if exists items_name_trgm`.execute(db);
}
