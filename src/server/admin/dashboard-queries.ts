import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';

/** The dashboard's SQL, Kysely only. Each function takes the db and returns numbers, not driver strings. */

type Db = Kysely<Database>;

export interface AccountCounts {
  users: number;
  admins: number;
  verified: number;
  newSince: number;
}

/** All accounts, admins, verified ones, and those created at or after `since` (ISO), in one scan. */
export async function countAccounts(db: Db, since: string): Promise<AccountCounts> {
  const row = await db
    .selectFrom('users')
    .select((eb) => [
      eb.fn.countAll<string | number>().as('users'),
      eb.fn.sum<string | number | null>(eb.case().when('role', '=', 'admin').then(1).else(0).end()).as('admins'),
      eb.fn.sum<string | number | null>(eb.case().when('email_verified_at', 'is not', null).then(1).else(0).end()).as('verified'),
      eb.fn.sum<string | number | null>(eb.case().when('created_at', '>=', since).then(1).else(0).end()).as('new_since'),
    ])
    .executeTakeFirstOrThrow();
  return { users: Number(row.users), admins: Number(row.admins ?? 0), verified: Number(row.verified ?? 0), newSince: Number(row.new_since ?? 0) };
}

/** Bytes held by all files (folders excluded) and how many files were created at or after `since` (ISO). */
export async function fileTotals(db: Db, since: string): Promise<{ bytes: number; createdSince: number }> {
  const row = await db
    .selectFrom('items')
    .where('type', '!=', 'folder')
    .select((eb) => [
      eb.fn.sum<string | number | null>('size').as('bytes'),
      eb.fn.sum<string | number | null>(eb.case().when('created_at', '>=', since).then(1).else(0).end()).as('created_since'),
    ])
    .executeTakeFirstOrThrow();
  return { bytes: Number(row.bytes ?? 0), createdSince: Number(row.created_since ?? 0) };
}

export async function countShares(db: Db): Promise<number> {
  const row = await db.selectFrom('shares').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The `limit` most recently created accounts, newest first. */
export function newestAccounts(db: Db, limit: number) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'color', 'avatar_key', 'role', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export type NewestAccount = Awaited<ReturnType<typeof newestAccounts>>[number];
