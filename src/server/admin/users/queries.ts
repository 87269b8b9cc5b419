import { sql, SqliteAdapter, type Insertable, type Kysely, type RawBuilder, type Updateable } from 'kysely';
import type { Database, UsersTable } from '../../../../db/schema.ts';

/** The admin's user SQL, Kysely only. Every function takes the db or a transaction; none reads a request. */

type Db = Kysely<Database>;

export const SORTS = ['name', 'email', 'created_at', 'last_signed_in_at', 'storage_used'] as const;
export type UserSort = (typeof SORTS)[number];
export type Direction = 'asc' | 'desc';

/**
 * Each sort's key, written exactly as its index in migration 20261128090000_admin_users is, so
 * the planner walks that index: names case-folded, a missing sign-in as '' (first ascending).
 */
const SORT_KEY: Record<UserSort, RawBuilder<string | number>> = {
  name: sql`lower(name)`,
  email: sql`email`,
  created_at: sql`created_at`,
  last_signed_in_at: sql`coalesce(last_signed_in_at, '')`,
  storage_used: sql`storage_used_bytes`,
};

export const LIST_COLUMNS = ['id', 'name', 'email', 'role', 'color', 'avatar_key', 'email_verified_at', 'created_at', 'last_signed_in_at', 'storage_used_bytes'] as const;

export interface ListRow {
  id: string;
  name: string;
  email: string;
  role: UsersTable['role'];
  color: string;
  avatar_key: string | null;
  email_verified_at: string | null;
  created_at: string;
  last_signed_in_at: string | null;
  storage_used_bytes: number;
  sort_key: string | number;
}

export interface ListQuery {
  search: string | null;
  sort: UserSort;
  direction: Direction;
  /** The sort key and id of the last row already shown. */
  after: [string | number, string] | null;
  limit: number;
}

/** The shortest search the trigram index can serve; shorter ones read every account's name and email. */
const TRIGRAM = 3;
/** Up to this many trigram matches, the search starts from them; from here on it walks the sort's index. */
const FEW_MATCHES = 1000;

/** `LIKE` pattern for a substring, with the pattern's own wildcards taken literally. */
function containing(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page of accounts in the chosen order (id breaks ties), after the cursor's row: a seek in the
 * sort's index on both databases, so page 4,000 costs what page 1 does. The search matches a
 * substring of the name (case-folded) or the email.
 */
export async function listUserRows(db: Db, query: ListQuery): Promise<ListRow[]> {
  const key = SORT_KEY[query.sort];
  let q = db.selectFrom('users').select([...LIST_COLUMNS, key.as('sort_key')]);
  if (query.search) {
    const needle = query.search.toLowerCase();
    const pattern = containing(needle);
    q = q.where(sql<boolean>`(lower(name) like ${pattern} escape '\\' or email like ${pattern} escape '\\')`);
    // SQLite: the trigram index (migration 20261128090000_admin_users) narrows the rows first when
    // few match; the LIKE decides. Many matches (a mail domain) are found sooner by walking the
    // sort's index and stopping at the page, as without a search: over 100,000 accounts the index
    // route took 1.5 s for a word every account has, the walk 0.1 ms; for one account 1 ms against
    // 460 ms. A capped count of the index's matches (under 1 ms) picks the route.
    // PostgreSQL's pg_trgm indexes serve the LIKE as it is, and its planner picks the route.
    if (db.getExecutor().adapter instanceof SqliteAdapter && [...needle].length >= TRIGRAM) {
      const phrase = `"${needle.replaceAll('"', '""')}"`;
      const { rows } = await sql<{ n: number }>`select count(*) as n from (select rowid from users_fts where users_fts match ${phrase} limit ${FEW_MATCHES})`.execute(db);
      if (Number(rows[0]?.n ?? 0) < FEW_MATCHES) {
        q = q.where(sql<boolean>`id in (select s.user_id from users_fts f join users_search s on s.id = f.rowid where users_fts match ${phrase})`);
      }
    }
  }
  if (query.after) {
    const [value, id] = query.after;
    // "key >= v and (key > v or id > last)", not the row value "(key, id) > (v, last)": SQLite seeks
    // an expression index (lower(name), coalesce(...)) only for a plain bound on the expression, and
    // walked the index from its start with the row value (20 ms at row 50,000 of 100,000).
    q = q.where(
      query.direction === 'asc'
        ? sql<boolean>`${key} >= ${value} and (${key} > ${value} or id > ${id})`
        : sql<boolean>`${key} <= ${value} and (${key} < ${value} or id < ${id})`,
    );
  }
  return (await q
    .orderBy(key, query.direction)
    .orderBy('id', query.direction)
    .limit(query.limit + 1)
    .execute()) as ListRow[];
}

export function findUserRow(db: Db, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function emailTaken(db: Db, email: string, exceptId?: string): Promise<boolean> {
  let q = db.selectFrom('users').select('id').where('email', '=', email);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function countAdmins(db: Db): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n')).where('role', '=', 'admin').executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Serialises changes that can take away an admin (a demotion, a deletion) for the rest of the
 * transaction, so two admins demoting each other at once cannot leave the instance with none.
 * SQLite runs one write transaction at a time already; PostgreSQL takes an advisory lock.
 */
export async function lockAdminRoles(tx: Db, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('admin-roles'))`.execute(tx);
}

export async function insertUserRow(db: Db, row: Insertable<UsersTable>): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function updateUserRow(db: Db, id: string, patch: Updateable<UsersTable>): Promise<void> {
  await db.updateTable('users').set(patch).where('id', '=', id).execute();
}

/** Ends every session of the user but `keepSessionId`, and every access token; answers how many of each. */
export async function endSessionsAndTokens(db: Db, userId: string, keepSessionId: string | null): Promise<{ sessions: number; tokens: number }> {
  let sessions = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepSessionId) sessions = sessions.where('id', '!=', keepSessionId);
  const ended = await sessions.executeTakeFirst();
  const revoked = await db.deleteFrom('access_tokens').where('user_id', '=', userId).executeTakeFirst();
  return { sessions: Number(ended.numDeletedRows), tokens: Number(revoked.numDeletedRows) };
}

/** Links mailed for the old address (verification, password reset) stop working once it changes. */
export async function dropMailedLinks(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('email_verifications').where('user_id', '=', userId).execute();
  await dropPasswordResets(db, userId);
}

export async function dropPasswordResets(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('password_resets').where('user_id', '=', userId).execute();
}

/** SQLite and PostgreSQL words for a unique index refusing a row. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}
