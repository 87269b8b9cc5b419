import type { AppContext } from '../context.ts';
import { driverKeys } from './payment-settings.ts';

/**
 * A renewal the user paid through "pay the outstanding amount" is still open at the provider, which
 * would keep retrying it and charge it a second time. Stripe is told it was paid out of band
 * (POST /v1/invoices/{id}/pay, paid_out_of_band), which stops its retries. Called after the
 * payment was recorded: a provider that cannot be reached is logged, and the payment stands.
 */
export async function openProviderDebts(ctx: AppContext, userId: string): Promise<string[]> {
  const rows = await ctx.db.selectFrom('failed_payments').select('debt_ref').distinct().where('user_id', '=', userId).where('resolved_at', 'is', null).where('driver', '=', 'stripe').where('debt_ref', 'is not', null).execute();
  return rows.map((r) => r.debt_ref!);
}

export async function settleProviderDebts(ctx: AppContext, userId: string, debtRefs: string[]): Promise<void> {
  if (!debtRefs.length) return;
  const stillOpen = new Set(await openProviderDebts(ctx, userId));
  const settled = debtRefs.filter((ref) => !stillOpen.has(ref));
  if (!settled.length) return;
  const keys = await driverKeys(ctx, 'stripe');
  if (!keys) return;
  const { stripeClient } = await import('./gateways/stripe.ts');
  const stripe = stripeClient(ctx, keys.secretKey);
  for (const invoice of settled) {
    try {
      await stripe.invoices.pay(invoice, { paid_out_of_band: true });
    } catch (error) {
      ctx.logger.warn({ provider: 'stripe', invoice, error: error instanceof Error ? error.message : String(error) }, 'could not mark a settled renewal paid at the provider');
    }
  }
}
