// contract: owned by LEDGER (billing-contract.md). Minimal stand-ins so PAY's webhooks and checkout
// work on their own branch; the merge keeps LEDGER's version of this file.
import { randomInt, randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { createNotification } from '../notifications/service.ts';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** SPEC §9: a payment reference is 10 random alphanumeric characters. */
export function newReference(): string {
  let out = '';
  for (let i = 0; i < 10; i += 1) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

export interface PaymentRecord {
  userId: string;
  amountMinor: number;
  currency: string;
  driver: 'stripe' | 'paystack' | 'paypal';
  reference: string;
  note: string;
  purpose: 'top-up' | 'subscription' | 'outstanding';
  subscriptionId?: string;
  periodStart?: string;
  periodEnd?: string;
}

export async function recordPayment(ctx: AppContext, p: PaymentRecord): Promise<{ transactionId: string; invoiceId: string }> {
  const existing = await ctx.db.selectFrom('transactions').select(['id', 'invoice_id']).where('reference', '=', p.reference).executeTakeFirst();
  if (existing) return { transactionId: existing.id, invoiceId: existing.invoice_id ?? '' };
  const now = ctx.clock.now().toISOString();
  const year = Number(now.slice(0, 4));
  const transactionId = randomUUID();
  const invoiceId = randomUUID();
  await ctx.db.transaction().execute(async (trx) => {
    const last = await trx.selectFrom('invoices').select((eb) => eb.fn.max('seq').as('seq')).where('year', '=', year).executeTakeFirst();
    const seq = Number(last?.seq ?? 0) + 1;
    await trx
      .insertInto('invoices')
      .values({
        id: invoiceId,
        user_id: p.userId,
        subscription_id: p.subscriptionId ?? null,
        year,
        seq,
        number: `${year}-${String(seq).padStart(5, '0')}`,
        currency: p.currency,
        total_minor: p.amountMinor,
        lines: JSON.stringify([{ description: p.note, quantity: 1, unit: 'item', amount_minor: p.amountMinor }]),
        seller: '{}',
        customer: '{}',
        period_start: p.periodStart ?? null,
        period_end: p.periodEnd ?? null,
        status: 'paid',
        issued_at: now,
        paid_at: now,
      })
      .execute();
    await trx
      .insertInto('transactions')
      .values({ id: transactionId, user_id: p.userId, reference: p.reference, type: 'credit', status: 'completed', amount_minor: p.amountMinor, currency: p.currency, driver: p.driver, note: p.note, invoice_id: invoiceId, created_at: now })
      .execute();
    if (p.purpose === 'top-up') {
      await trx
        .insertInto('billing_accounts')
        .values({ user_id: p.userId, balance_minor: p.amountMinor, currency: p.currency, alert_minor: null, alert_sent_month: null, updated_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ balance_minor: eb('billing_accounts.balance_minor', '+', p.amountMinor), updated_at: now })))
        .execute();
    } else {
      await trx.updateTable('failed_payments').set({ resolved_at: now }).where('user_id', '=', p.userId).where('resolved_at', 'is', null).execute();
    }
  });
  return { transactionId, invoiceId };
}

export async function recordFailedPayment(
  ctx: AppContext,
  f: { userId: string; subscriptionId: string | null; amountMinor: number; currency: string; driver: string; reason: string; reference: string },
): Promise<void> {
  const existing = await ctx.db.selectFrom('transactions').select('id').where('reference', '=', f.reference).executeTakeFirst();
  if (existing) return;
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('transactions')
      .values({ id: randomUUID(), user_id: f.userId, reference: f.reference, type: 'charge', status: 'error', amount_minor: f.amountMinor, currency: f.currency, driver: f.driver as 'stripe', note: f.reason, invoice_id: null, created_at: now })
      .execute();
    await trx
      .insertInto('failed_payments')
      .values({ id: randomUUID(), user_id: f.userId, subscription_id: f.subscriptionId, invoice_id: null, amount_minor: f.amountMinor, currency: f.currency, driver: f.driver, reason: f.reason, resolved_at: null, created_at: now })
      .execute();
  });
  await createNotification(ctx, { userId: f.userId, category: 'insufficient-balance', title: 'Payment failed', description: f.reason, action: null });
}

export async function outstandingFor(ctx: AppContext, userId: string): Promise<{ amountMinor: number; currency: string } | null> {
  const rows = await ctx.db.selectFrom('failed_payments').select(['amount_minor', 'currency']).where('user_id', '=', userId).where('resolved_at', 'is', null).execute();
  if (!rows.length) return null;
  return { amountMinor: rows.reduce((sum, r) => sum + Number(r.amount_minor), 0), currency: rows[0]!.currency };
}
