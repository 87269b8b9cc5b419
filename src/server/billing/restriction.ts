import type { Kysely } from 'kysely';
import type { Database } from '../../../db/index.ts';
import { billingLimited, withBillingLimit } from '../users/restrictions.ts';

/** SPEC §9: the account is limited while this many failed payments are unresolved (SPEC §4 says exactly 3; a 4th keeps it limited). */
export const FAILED_PAYMENTS_LIMIT = 3;

/** Unresolved failed payments of the user. */
export async function openFailedPayments(db: Kysely<Database>, userId: string) {
  return db.selectFrom('failed_payments').selectAll().where('user_id', '=', userId).where('resolved_at', 'is', null).orderBy('created_at').orderBy('id').execute();
}

/**
 * Sets or lifts billing's limit on the account from its unresolved failed payments, leaving the
 * admin's own flags as they are (users/restrictions.ts). Returns whether the account is limited now.
 */
export async function syncBillingLimit(db: Kysely<Database>, userId: string, at: string): Promise<boolean> {
  const open = await db
    .selectFrom('failed_payments')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  const limited = Number(open?.n ?? 0) >= FAILED_PAYMENTS_LIMIT;
  const user = await db.selectFrom('users').select('restrictions').where('id', '=', userId).executeTakeFirst();
  if (!user || billingLimited(user) === limited) return limited;
  await db.updateTable('users').set({ restrictions: withBillingLimit(user.restrictions, limited), updated_at: at }).where('id', '=', userId).execute();
  return limited;
}
