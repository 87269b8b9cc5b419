import type { Generated } from 'kysely';

// Billing (migrations/20261202090000_billing.ts). Money is integer minor units with an ISO 4217
// currency; metered unit prices are integer millionths of the major unit.
export type PlanType = 'fixed' | 'metered';
export type PlanStatus = 'active' | 'archived';
export type BillingInterval = 'month' | 'year';
export type SubscriptionStatus = 'active' | 'cancelled' | 'completed';
export type PaymentDriver = 'stripe' | 'paystack' | 'paypal';
export type TransactionType = 'credit' | 'charge' | 'withdrawal';
export type TransactionStatus = 'completed' | 'cancelled' | 'error';

export interface PlansTable {
  id: string;
  type: PlanType;
  name: string;
  description: Generated<string>;
  status: Generated<PlanStatus>;
  currency: string;
  interval: BillingInterval | null;
  amount_minor: number | null;
  storage_bytes: number | null;
  max_team_members: number | null;
  storage_gb_day_micros: number | null;
  bandwidth_gb_micros: number | null;
  member_day_micros: number | null;
  flat_fee_minor: number | null;
  /** JSON object: the plan's ids at each provider. */
  provider_refs: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface SubscriptionsTable {
  id: string;
  user_id: string;
  plan_id: string;
  status: SubscriptionStatus;
  /** A payment provider, or 'balance' for metered plans charged from the prepaid balance. */
  driver: PaymentDriver | 'balance';
  provider_ref: string | null;
  /** The price this subscriber pays (kept until renewal when the plan's price changes). */
  amount_minor: number | null;
  currency: string;
  interval: BillingInterval | null;
  current_period_start: string;
  current_period_end: string;
  ends_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface BillingAccountsTable {
  user_id: string;
  balance_minor: Generated<number>;
  currency: string;
  alert_minor: number | null;
  /** 'YYYY-MM' of the month the billing alert was last sent for. */
  alert_sent_month: string | null;
  /** JSON object: the customer's ids at each provider. */
  provider_customers: Generated<string>;
  /** JSON object: the customer's billing details, copied onto invoices. */
  details: Generated<string>;
  updated_at: string;
}

export interface InvoicesTable {
  id: string;
  user_id: string;
  subscription_id: string | null;
  year: number;
  seq: number;
  number: string;
  currency: string;
  total_minor: number;
  /** JSON array of { description, quantity, unit, amount_minor }. */
  lines: string;
  /** JSON snapshots at issue time. */
  seller: string;
  customer: string;
  period_start: string | null;
  period_end: string | null;
  status: 'paid' | 'unpaid';
  issued_at: string;
  paid_at: string | null;
}

export interface TransactionsTable {
  id: string;
  user_id: string;
  /** SPEC §9: 10 random alphanumeric characters. */
  reference: string;
  type: TransactionType;
  status: TransactionStatus;
  /** Always positive; the type gives the sign. */
  amount_minor: number;
  currency: string;
  driver: PaymentDriver | 'balance' | 'system';
  note: Generated<string>;
  invoice_id: string | null;
  created_at: string;
}

export interface FailedPaymentsTable {
  id: string;
  user_id: string;
  subscription_id: string | null;
  invoice_id: string | null;
  amount_minor: number;
  currency: string;
  driver: string;
  reason: Generated<string>;
  resolved_at: string | null;
  created_at: string;
  /** The provider's id of what is owed (its invoice): retries of one renewal share it and are owed once. */
  debt_ref: string | null;
}

export interface PaymentEventsTable {
  provider: string;
  event_id: string;
  type: string;
  received_at: string;
}

export interface UsageDaysTable {
  user_id: string;
  /** 'YYYY-MM-DD', UTC. */
  day: string;
  storage_bytes: number;
  bandwidth_bytes: number;
  members: number;
  created_at: string;
}

export interface BandwidthCountersTable {
  user_id: string;
  day: string;
  bytes: Generated<number>;
}
