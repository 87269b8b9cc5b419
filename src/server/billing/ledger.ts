import { randomInt, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/index.ts';
import type { PaymentDriver } from '../../../db/schema.ts';
import type { AppContext } from '../context.ts';
import { createNotification } from '../notifications/service.ts';
import { issueInvoice, lockBilling, type InvoiceLine } from './invoices.ts';
import { formatMinor } from '../../components/billing/money.ts';
import { assertAmount, assertCurrency, currencyMismatch } from './money.ts';
import { FAILED_PAYMENTS_LIMIT, syncBillingLimit } from './restriction.ts';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** SPEC §9: a payment reference is 10 random alphanumeric characters (crypto-random). */
export function newReference(): string {
  let out = '';
  for (let i = 0; i < 10; i += 1) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

export type Driver = PaymentDriver | 'balance' | 'system';

/**
 * The user's billing account inside a billing transaction: created on first use in `currency`; an
 * amount in another currency than the account's is refused (422).
 */
export async function accountFor(trx: Kysely<Database>, userId: string, currency: string, at: string) {
  await trx.insertInto('billing_accounts').values({ user_id: userId, currency, updated_at: at, alert_minor: null, alert_sent_month: null }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
  const account = await trx.selectFrom('billing_accounts').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
  if (account.currency !== currency) throw currencyMismatch(account.currency, currency);
  return { ...account, balance_minor: Number(account.balance_minor) };
}

async function existingByReference(db: Kysely<Database>, reference: string) {
  return db.selectFrom('transactions').select(['id', 'invoice_id', 'user_id']).where('reference', '=', reference).executeTakeFirst();
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

const PURPOSE_LINE = { 'top-up': 'Balance top-up', subscription: 'Subscription', outstanding: 'Outstanding amount' } as const;

export interface PaymentInput {
  userId: string;
  amountMinor: number;
  currency: string;
  driver: Driver;
  reference: string;
  note: string;
  purpose: 'top-up' | 'subscription' | 'outstanding';
  subscriptionId?: string;
  periodStart?: string;
  periodEnd?: string;
}

/**
 * A confirmed payment: a completed credit transaction and its invoice, in one transaction.
 * Idempotent by `reference` (a second call answers the first result). A top-up adds to the balance;
 * paying a subscription resolves its open failed payments, paying the outstanding amount those it
 * covers (oldest first, any rest to the balance); their unpaid invoices are marked paid and the
 * account's limit lifts at once when fewer than 3 stay open.
 */
export async function recordPayment(ctx: AppContext, input: PaymentInput): Promise<{ transactionId: string; invoiceId: string }> {
  const amount = assertAmount(input.amountMinor);
  const currency = assertCurrency(input.currency);
  const known = await existingByReference(ctx.db, input.reference);
  if (known) return { transactionId: known.id, invoiceId: known.invoice_id ?? '' };
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      await lockBilling(ctx, trx);
      const again = await existingByReference(trx, input.reference);
      if (again) return { transactionId: again.id, invoiceId: again.invoice_id ?? '' };
      const at = ctx.clock.now().toISOString();
      const account = await accountFor(trx, input.userId, currency, at);
      const line: InvoiceLine = { description: input.note || PURPOSE_LINE[input.purpose], quantity: 1, unit: 'payment', amount_minor: amount };
      const invoice = await issueInvoice(trx, {
        userId: input.userId,
        subscriptionId: input.subscriptionId ?? null,
        currency,
        lines: [line],
        periodStart: input.periodStart ?? null,
        periodEnd: input.periodEnd ?? null,
        status: 'paid',
        at,
      });
      const transactionId = randomUUID();
      await trx
        .insertInto('transactions')
        .values({ id: transactionId, user_id: input.userId, reference: input.reference, type: 'credit', status: 'completed', amount_minor: amount, currency, driver: input.driver, note: input.note || PURPOSE_LINE[input.purpose], invoice_id: invoice.id, created_at: at })
        .execute();
      // A top-up goes to the balance whole; what an outstanding payment leaves over after the debts it settles, too.
      let toBalance = amount;
      if (input.purpose === 'outstanding') toBalance = await resolveFailedPayments(trx, input.userId, at, { amount });
      if (input.purpose === 'subscription') {
        toBalance = 0;
        await resolveFailedPayments(trx, input.userId, at, { amount: null, subscriptionId: input.subscriptionId });
      }
      if (toBalance > 0) {
        await trx.updateTable('billing_accounts').set({ balance_minor: account.balance_minor + toBalance, updated_at: at }).where('user_id', '=', input.userId).execute();
      }
      await syncBillingLimit(trx, input.userId, at);
      return { transactionId, invoiceId: invoice.id };
    });
  } catch (error) {
    // Two deliveries of one payment at once: the second finds the first's row once it commits.
    const winner = isUniqueViolation(error) ? await existingByReference(ctx.db, input.reference) : undefined;
    if (winner) return { transactionId: winner.id, invoiceId: winner.invoice_id ?? '' };
    throw error;
  }
}

/**
 * Marks failed payments paid, oldest first, and their unpaid invoices with them: a subscription's
 * payment settles that subscription's (all, with no subscription named); an outstanding payment
 * settles as many as its amount covers. Returns what was left of `amount` (null: settle all).
 */
async function resolveFailedPayments(trx: Kysely<Database>, userId: string, at: string, options: { amount: number | null; subscriptionId?: string | undefined }): Promise<number> {
  let q = trx.selectFrom('failed_payments').select(['id', 'invoice_id', 'amount_minor', 'debt_ref']).where('user_id', '=', userId).where('resolved_at', 'is', null);
  if (options.subscriptionId) q = q.where('subscription_id', '=', options.subscriptionId);
  const open = await q.orderBy('created_at').orderBy('id').execute();
  let left = options.amount ?? Number.POSITIVE_INFINITY;
  const settled: typeof open = [];
  // Retries of one debt are owed once: paying it settles them all.
  for (const debt of debts(open)) {
    if (debt.amountMinor > left) break;
    left -= debt.amountMinor;
    settled.push(...debt.rows);
  }
  if (settled.length) {
    await trx.updateTable('failed_payments').set({ resolved_at: at }).where('id', 'in', settled.map((f) => f.id)).execute();
    const invoices = settled.map((f) => f.invoice_id).filter((id): id is string => !!id);
    if (invoices.length) await trx.updateTable('invoices').set({ status: 'paid', paid_at: at }).where('id', 'in', invoices).where('status', '=', 'unpaid').execute();
  }
  return Number.isFinite(left) ? left : 0;
}

/**
 * Open failed payments grouped into what is owed, oldest first: the attempts at one provider
 * invoice (same debt_ref) are one debt of the largest amount tried; a row without one is its own.
 */
function debts<T extends { id: string; amount_minor: number | string; debt_ref: string | null }>(rows: T[]): { amountMinor: number; rows: T[] }[] {
  const groups = new Map<string, { amountMinor: number; rows: T[] }>();
  for (const row of rows) {
    const key = row.debt_ref ? `ref:${row.debt_ref}` : `id:${row.id}`;
    const group = groups.get(key) ?? { amountMinor: 0, rows: [] };
    group.amountMinor = Math.max(group.amountMinor, Number(row.amount_minor));
    group.rows.push(row);
    groups.set(key, group);
  }
  return [...groups.values()];
}

export interface FailedPaymentInput {
  userId: string;
  subscriptionId: string | null;
  amountMinor: number;
  currency: string;
  driver: string;
  reason: string;
  reference: string;
  invoiceId?: string | null;
  /** The provider's id of what is owed (its invoice), when it retries one charge: owed once however often it fails. */
  debtRef?: string | null;
}

/**
 * Inside a billing transaction: an error transaction, a failed_payments row and, up to the limit,
 * an `insufficient-balance` notification (its id is returned for the caller to announce after the
 * commit); at 3 unresolved the account is limited, a 4th keeps it so and tells nobody again.
 * Returns null when the reference was recorded already.
 */
export async function failPayment(ctx: AppContext, trx: Kysely<Database>, input: FailedPaymentInput, at: string): Promise<{ notificationId: string | null } | null> {
  if (await existingByReference(trx, input.reference)) return null;
  await trx
    .insertInto('transactions')
    .values({ id: randomUUID(), user_id: input.userId, reference: input.reference, type: 'charge', status: 'error', amount_minor: input.amountMinor, currency: input.currency, driver: input.driver as Driver, note: input.reason, invoice_id: input.invoiceId ?? null, created_at: at })
    .execute();
  await trx
    .insertInto('failed_payments')
    .values({ id: randomUUID(), user_id: input.userId, subscription_id: input.subscriptionId, invoice_id: input.invoiceId ?? null, amount_minor: input.amountMinor, currency: input.currency, driver: input.driver, reason: input.reason, resolved_at: null, created_at: at, debt_ref: input.debtRef ?? null })
    .execute();
  const open = await trx.selectFrom('failed_payments').select((eb) => eb.fn.countAll<number | string>().as('n')).where('user_id', '=', input.userId).where('resolved_at', 'is', null).executeTakeFirst();
  const count = Number(open?.n ?? 0);
  await syncBillingLimit(trx, input.userId, at);
  if (count > FAILED_PAYMENTS_LIMIT) return { notificationId: null };
  const limited = count === FAILED_PAYMENTS_LIMIT;
  const notificationId = await createNotification(
    { ...ctx, db: trx },
    {
      userId: input.userId,
      category: 'insufficient-balance',
      title: limited ? 'Your account is limited' : 'A payment failed',
      description: `${formatMinor(input.amountMinor, input.currency, 'en')} could not be charged${input.reason ? `: ${input.reason}` : ''}.${limited ? ' Uploads and downloads are paused until the outstanding amount is paid.' : ''}`,
      action: { type: 'route', params: { id: null, route: 'Billing', button: 'Billing' } },
    },
  );
  return { notificationId };
}

/** A payment that did not go through (a provider's failed renewal, a charge the balance cannot cover). Idempotent by reference. */
export async function recordFailedPayment(
  ctx: AppContext,
  input: { userId: string; subscriptionId: string | null; amountMinor: number; currency: string; driver: string; reason: string; reference: string; debtRef?: string | null },
): Promise<void> {
  const amount = assertAmount(input.amountMinor);
  const currency = assertCurrency(input.currency);
  const result = await ctx.db.transaction().execute(async (trx) => {
    await lockBilling(ctx, trx);
    const at = ctx.clock.now().toISOString();
    await accountFor(trx, input.userId, currency, at);
    return failPayment(ctx, trx, { ...input, amountMinor: amount, currency }, at);
  });
  if (result?.notificationId) ctx.events.emit('notification.created', { userId: input.userId, notificationId: result.notificationId });
}

/** What the user owes: the sum of their unresolved failed payments, or null when nothing is open. */
export async function outstandingFor(ctx: AppContext, userId: string): Promise<{ amountMinor: number; currency: string } | null> {
  const rows = await ctx.db
    .selectFrom('failed_payments')
    .select(['id', 'currency', 'amount_minor', 'debt_ref'])
    .where('user_id', '=', userId)
    .where('resolved_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const currency = rows[0]?.currency;
  if (!currency) return null;
  return { amountMinor: debts(rows.filter((r) => r.currency === currency)).reduce((sum, d) => sum + d.amountMinor, 0), currency };
}

/** An admin's gift: a completed credit added to the balance (driver `system`), no invoice (nothing was paid). Inside a billing transaction. */
export async function creditBalance(trx: Kysely<Database>, input: { userId: string; amountMinor: number; currency: string; note: string }, at: string) {
  const account = await accountFor(trx, input.userId, input.currency, at);
  const id = randomUUID();
  await trx
    .insertInto('transactions')
    .values({ id, user_id: input.userId, reference: newReference(), type: 'credit', status: 'completed', amount_minor: input.amountMinor, currency: input.currency, driver: 'system', note: input.note, invoice_id: null, created_at: at })
    .execute();
  await trx.updateTable('billing_accounts').set({ balance_minor: account.balance_minor + input.amountMinor, updated_at: at }).where('user_id', '=', input.userId).execute();
  return { id, balance_minor: account.balance_minor + input.amountMinor };
}
