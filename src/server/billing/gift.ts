import { z } from 'zod';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { recordAudit } from '../admin/audit.ts';
import { requireAdmin } from '../admin/guard.ts';
import { notFound, validationError } from '../http/errors.ts';
import { validate } from '../http/validate.ts';
import { createNotification } from '../notifications/service.ts';
import { lockBilling } from './invoices.ts';
import { creditBalance } from './ledger.ts';
import { formatMinor } from '../../components/billing/money.ts';
import { assertAmount, assertCurrency } from './money.ts';
import { activePlanFor } from './plans.ts';

const GiftInput = z.strictObject({
  amount_minor: z.unknown(),
  currency: z.string().optional(),
  note: z.string({ error: 'The note must be text.' }).trim().max(500, 'The note may have at most 500 characters.').optional(),
});

/**
 * An admin's gift (POST /api/admin/users/{id}/credit): a completed credit on the user's balance, a
 * `gift` notification, and an audit entry, committed together. The currency is the account's (or
 * the plan's for a user without one yet); another currency is refused.
 */
export async function giftCredit(ctx: AppContext, actor: User, id: string | undefined, body: unknown) {
  requireAdmin(actor);
  const input = validate(GiftInput, body);
  const amount = assertAmount(input.amount_minor);
  const target = id ? await ctx.db.selectFrom('users').select(['id', 'email', 'deletion_started_at']).where('id', '=', id).executeTakeFirst() : undefined;
  if (!target || target.deletion_started_at) throw notFound('The user was not found.');
  const account = await ctx.db.selectFrom('billing_accounts').select('currency').where('user_id', '=', target.id).executeTakeFirst();
  const currency = input.currency !== undefined ? assertCurrency(input.currency) : (account?.currency ?? (await activePlanFor(ctx, target.id))?.plan.currency);
  if (!currency) throw validationError({ currency: ['This user has no billing account yet: name the currency.'] });
  const note = input.note || 'Credit from the administrator';
  const { result, notificationId } = await ctx.db.transaction().execute(async (trx) => {
    await lockBilling(ctx, trx);
    const at = ctx.clock.now().toISOString();
    const result = await creditBalance(trx, { userId: target.id, amountMinor: amount, currency, note }, at);
    await recordAudit(ctx, trx, actor, { action: 'user.credit', target_type: 'user', target_id: target.id, target_label: target.email, after: { amount_minor: amount, currency, note, transaction_id: result.id } });
    const notificationId = await createNotification(
      { ...ctx, db: trx },
      { userId: target.id, category: 'gift', title: 'You received credit', description: `${formatMinor(amount, currency, 'en')} was added to your balance. ${note}`, action: { type: 'route', params: { id: null, route: 'Billing', button: 'Billing' } } },
    );
    return { result, notificationId };
  });
  ctx.events.emit('notification.created', { userId: target.id, notificationId });
  return { data: { id: result.id, type: 'transaction', attributes: { amount_minor: amount, currency, note, balance_minor: result.balance_minor } } };
}
