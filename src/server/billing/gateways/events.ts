import { createHash } from 'node:crypto';
import type { CheckoutMetadata } from './gateway.ts';

/**
 * What a verified provider event means to us, whatever the provider. Parsers (one per provider)
 * turn a signed webhook into one of these; webhooks.ts acts on them.
 */
export type BillingEvent =
  | { kind: 'payment.succeeded'; metadata: CheckoutMetadata | null; amountMinor: number; currency: string }
  /** A subscription period was paid: its first invoice (metadata says who and which plan) or a renewal. */
  | {
      kind: 'subscription.paid';
      providerRef: string;
      metadata: CheckoutMetadata | null;
      amountMinor: number;
      currency: string;
      periodStart: string;
      /** null: one interval of the subscription's plan after the start (the provider did not say). */
      periodEnd: string | null;
      reference: string;
      /** Paystack names a subscription only after its first charge: an unknown one may just not have arrived yet. */
      retryIfUnknown?: boolean;
    }
  /** Paystack: the subscription made after a first charge gets its own code. */
  | { kind: 'subscription.linked'; providerRef: string; newRef: string; periodEnd: string | null }
  /** debtRef: the provider's invoice the failed attempt was for (its retries share it), null when it does not say. */
  | { kind: 'subscription.failed'; providerRef: string; amountMinor: number; currency: string; reason: string; reference: string; debtRef: string | null }
  | { kind: 'subscription.updated'; providerRef: string; cancelAtPeriodEnd: boolean; periodEnd: string | null }
  | { kind: 'subscription.ended'; providerRef: string; at: string }
  /** PayPal: the buyer approved an order; we capture it (the capture's own webhook records the payment). */
  | { kind: 'order.approved'; orderId: string }
  | { kind: 'ignored' };

export interface VerifiedEvent {
  id: string;
  type: string;
  events: BillingEvent[];
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The payment reference (SPEC §9: 10 alphanumeric characters) of a charge the provider started on
 * its own (a renewal): derived from the provider's id, so a redelivery finds the same reference.
 */
export function derivedReference(driver: string, providerId: string): string {
  const digest = createHash('sha256').update(`${driver}:${providerId}`).digest();
  let out = '';
  for (let i = 0; i < 10; i += 1) out += ALPHANUMERIC[digest[i]! % ALPHANUMERIC.length];
  return out;
}

export const isoFromUnix = (seconds: unknown): string | null => (typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : null);

/** Metadata we attached at checkout, read back from a signed event; null when it is not ours. */
export function readMetadata(value: unknown): CheckoutMetadata | null {
  if (!value || typeof value !== 'object') return null;
  const m = value as Record<string, unknown>;
  const str = (k: string) => (typeof m[k] === 'string' ? (m[k] as string) : typeof m[k] === 'number' ? String(m[k]) : null);
  const reference = str('reference');
  const user = str('user_id');
  const purpose = str('purpose');
  const amount = str('amount_minor');
  const currency = str('currency');
  if (!reference || !user || !purpose || !amount || !currency) return null;
  if (!['top-up', 'outstanding', 'subscription'].includes(purpose)) return null;
  const plan = str('plan_id');
  return { reference, user_id: user, purpose: purpose as CheckoutMetadata['purpose'], amount_minor: amount, currency, ...(plan ? { plan_id: plan } : {}) };
}
