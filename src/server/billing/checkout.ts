import { z } from 'zod';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { validationError } from '../http/errors.ts';
import { validate } from '../http/validate.ts';
import { gatewayFor } from './gateways/gateway.ts';
import { newReference, outstandingFor } from './ledger.ts';
import { DRIVERS } from './payment-settings.ts';
import { activePlanFor } from './plans.ts';
import { billingPageUrl } from './subscriptions.ts';

/**
 * Single charges (SPEC §1: the select-payment-method popup): a top-up of the prepaid balance, or the
 * outstanding amount of failed payments. The amount of an outstanding payment is the server's;
 * a top-up's is the user's choice within bounds. The money counts when the webhook confirms it.
 */
export const TOP_UP_MIN_MINOR = 100;
export const TOP_UP_MAX_MINOR = 1_000_000;

const CheckoutInput = z.discriminatedUnion(
  'purpose',
  [
    z.strictObject({
      purpose: z.literal('top-up'),
      amount_minor: z
        .number({ error: 'The amount must be a whole number of cents.' })
        .int('The amount must be a whole number of cents.')
        .min(TOP_UP_MIN_MINOR, `The amount must be at least ${TOP_UP_MIN_MINOR} cents.`)
        .max(TOP_UP_MAX_MINOR, `The amount may not be greater than ${TOP_UP_MAX_MINOR} cents.`),
      driver: z.enum(DRIVERS, { error: 'Choose a payment method: stripe, paystack or paypal.' }),
    }),
    z.strictObject({
      purpose: z.literal('outstanding'),
      driver: z.enum(DRIVERS, { error: 'Choose a payment method: stripe, paystack or paypal.' }),
    }),
  ],
  { error: 'The purpose must be top-up or outstanding.' },
);

/** The currency a user's balance is kept in: their billing account's, else their plan's, else USD. */
async function balanceCurrency(ctx: AppContext, userId: string): Promise<string> {
  const account = await ctx.db.selectFrom('billing_accounts').select('currency').where('user_id', '=', userId).executeTakeFirst();
  if (account) return account.currency;
  return (await activePlanFor(ctx, userId))?.plan.currency ?? 'USD';
}

export async function startCheckout(ctx: AppContext, user: User, body: unknown) {
  const input = validate(CheckoutInput, body);
  let amountMinor: number;
  let currency: string;
  if (input.purpose === 'outstanding') {
    const due = await outstandingFor(ctx, user.id);
    if (!due || due.amountMinor <= 0) throw validationError({ purpose: ['Nothing is outstanding on your account.'] });
    ({ amountMinor, currency } = due);
  } else {
    amountMinor = input.amount_minor;
    currency = await balanceCurrency(ctx, user.id);
  }
  const gateway = await gatewayFor(ctx, input.driver);
  const reference = newReference();
  const answer = await gateway.charge({
    payer: { userId: user.id, email: user.email, name: user.name },
    metadata: { reference, user_id: user.id, purpose: input.purpose, amount_minor: String(amountMinor), currency },
    amountMinor,
    currency,
    description: input.purpose === 'top-up' ? 'Balance top-up' : 'Outstanding payments',
    returnUrl: billingPageUrl(ctx, reference),
  });
  return { data: { driver: input.driver, ...answer, reference } };
}
