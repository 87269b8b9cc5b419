import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/index.ts';
import type { AppContext } from '../context.ts';

export interface InvoiceLine {
  description: string;
  quantity: number;
  unit: string;
  amount_minor: number;
}

/** The settings key PAY stores the company's billing details under (name, address, VAT…). */
export const BILLING_DETAILS_KEY = 'billing_details';

/**
 * Takes the lock every billing write holds until its transaction ends, so invoice numbers are
 * allocated one at a time: PostgreSQL's transaction-scoped advisory lock; on SQLite a write
 * statement first, which takes the database's one write lock before anything is read (a read
 * first could see a snapshot another process has since moved past).
 */
export async function lockBilling(ctx: AppContext, trx: Kysely<Database>): Promise<void> {
  if (ctx.config.database.dialect === 'postgres') {
    await sql`select pg_advisory_xact_lock(15015015)`.execute(trx);
    return;
  }
  await trx.updateTable('billing_accounts').set({ balance_minor: sql`balance_minor` }).where('user_id', '=', '').execute();
}

async function sellerSnapshot(db: Kysely<Database>): Promise<Record<string, unknown>> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', BILLING_DETAILS_KEY).executeTakeFirst();
  if (!row) return {};
  try {
    const parsed = JSON.parse(row.value) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

async function customerSnapshot(db: Kysely<Database>, userId: string): Promise<Record<string, unknown>> {
  const user = await db.selectFrom('users').select(['name', 'email']).where('id', '=', userId).executeTakeFirstOrThrow();
  const account = await db.selectFrom('billing_accounts').select('details').where('user_id', '=', userId).executeTakeFirst();
  let details: Record<string, unknown> = {};
  try {
    details = account ? (JSON.parse(account.details) as Record<string, unknown>) : {};
  } catch {
    /* unreadable details: the name and address are enough */
  }
  return { name: user.name, email: user.email, ...details };
}

/**
 * Issues an invoice inside the caller's transaction, which must hold lockBilling: the next number of
 * the year (`2026-00042`), no gaps (a rolled-back transaction gives its number back), with the
 * company's and the customer's details as they are now.
 */
export async function issueInvoice(
  trx: Kysely<Database>,
  input: { userId: string; subscriptionId?: string | null; currency: string; lines: InvoiceLine[]; periodStart?: string | null; periodEnd?: string | null; status: 'paid' | 'unpaid'; at: string },
): Promise<{ id: string; number: string }> {
  const year = Number(input.at.slice(0, 4));
  const last = await trx.selectFrom('invoices').select((eb) => eb.fn.max('seq').as('seq')).where('year', '=', year).executeTakeFirst();
  const seq = Number(last?.seq ?? 0) + 1;
  const number = `${year}-${String(seq).padStart(5, '0')}`;
  const id = randomUUID();
  await trx
    .insertInto('invoices')
    .values({
      id,
      user_id: input.userId,
      subscription_id: input.subscriptionId ?? null,
      year,
      seq,
      number,
      currency: input.currency,
      total_minor: input.lines.reduce((sum, line) => sum + line.amount_minor, 0),
      lines: JSON.stringify(input.lines),
      seller: JSON.stringify(await sellerSnapshot(trx)),
      customer: JSON.stringify(await customerSnapshot(trx, input.userId)),
      period_start: input.periodStart ?? null,
      period_end: input.periodEnd ?? null,
      status: input.status,
      issued_at: input.at,
      paid_at: input.status === 'paid' ? input.at : null,
    })
    .execute();
  return { id, number };
}
