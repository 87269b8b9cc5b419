import type { Kysely } from 'kysely';

// Billing (SPEC §1, §3, §4, §9): plans, subscriptions, the user's billing account and balance,
// transactions, invoices, failed payments, verified provider events and daily metered usage.
// Money is integer minor units (cents) with an ISO 4217 currency; metered unit prices are integer
// millionths of the currency's major unit (so 0.0033 USD per GB-day is 3300) and are rounded to
// minor units once, per invoice line. Timestamps are ISO text; flags are 0/1, as everywhere else.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // 'fixed' or 'metered' (SPEC §4 subscription types).
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // 'active' or 'archived': an archived plan keeps its subscribers and takes no new ones.
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('currency', 'text', (c) => c.notNull())
    // Fixed plans: the price per interval ('month' or 'year', SPEC §9), the storage and member limits.
    .addColumn('interval', 'text')
    .addColumn('amount_minor', 'bigint')
    .addColumn('storage_bytes', 'bigint')
    .addColumn('max_team_members', 'integer')
    // Metered plans: unit prices in millionths of the major unit, and a flat monthly fee in minor units.
    .addColumn('storage_gb_day_micros', 'bigint')
    .addColumn('bandwidth_gb_micros', 'bigint')
    .addColumn('member_day_micros', 'bigint')
    .addColumn('flat_fee_minor', 'bigint')
    // JSON object of the plan's ids at each provider ({ "stripe": "price_…", "paypal": "P-…" }).
    .addColumn('provider_refs', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Restrict: a plan with subscribers is archived, never deleted.
    .addColumn('plan_id', 'text', (c) => c.notNull().references('plans.id'))
    // 'active', 'cancelled' (ends at the period's end, may resume until then) or 'completed' (SPEC §4).
    .addColumn('status', 'text', (c) => c.notNull())
    // 'stripe', 'paystack', 'paypal', or 'balance' for metered plans charged from the balance.
    .addColumn('driver', 'text', (c) => c.notNull())
    // The subscription's id at the provider; null for 'balance'.
    .addColumn('provider_ref', 'text')
    // The price this subscriber pays, kept until renewal when the plan's price changes.
    .addColumn('amount_minor', 'bigint')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('interval', 'text')
    .addColumn('current_period_start', 'text', (c) => c.notNull())
    .addColumn('current_period_end', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_user').on('subscriptions').columns(['user_id', 'status']).execute();
  await db.schema.createIndex('subscriptions_plan').on('subscriptions').columns(['plan_id', 'status']).execute();
  await db.schema.createIndex('subscriptions_provider_ref').on('subscriptions').columns(['driver', 'provider_ref']).execute();

  await db.schema
    .createTable('billing_accounts')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    // The prepaid balance metered invoices are charged against, in minor units of `currency`.
    .addColumn('balance_minor', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'text', (c) => c.notNull())
    // The user's billing alert: a `billing-alert` notification once per month when the estimate passes it.
    .addColumn('alert_minor', 'bigint')
    .addColumn('alert_sent_month', 'text')
    // The customer's ids at the providers ({ "stripe": "cus_…", "paystack": "CUS_…" }).
    .addColumn('provider_customers', 'text', (c) => c.notNull().defaultTo('{}'))
    // JSON snapshot of the customer's billing details for invoices (name, address, country, vat…).
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('invoices')
    // The id is the invoice's address (/invoices/{id}); the number is what people read.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subscription_id', 'text', (c) => c.references('subscriptions.id').onDelete('set null'))
    // Numbered without gaps per year: `${year}-${seq padded to 5}`.
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('total_minor', 'bigint', (c) => c.notNull())
    // JSON array of lines: { description, quantity, unit, amount_minor }.
    .addColumn('lines', 'text', (c) => c.notNull())
    // JSON snapshots at issue time: the company's billing details and the customer's.
    .addColumn('seller', 'text', (c) => c.notNull())
    .addColumn('customer', 'text', (c) => c.notNull())
    // The period billed (subscriptions and metered months); null for a single charge.
    .addColumn('period_start', 'text')
    .addColumn('period_end', 'text')
    // 'paid' or 'unpaid' (a metered invoice the balance could not cover, until it is paid).
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('issued_at', 'text', (c) => c.notNull())
    .addColumn('paid_at', 'text')
    .addUniqueConstraint('invoices_year_seq', ['year', 'seq'])
    .execute();
  await db.schema.createIndex('invoices_user').on('invoices').columns(['user_id', 'issued_at']).execute();
  // One invoice per subscription period: the monthly metered job may run twice.
  await db.schema.createIndex('invoices_subscription_period').on('invoices').columns(['subscription_id', 'period_start']).unique().execute();

  await db.schema
    .createTable('transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // SPEC §9: 10 random alphanumeric characters; also the idempotency key of a provider charge.
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    // 'credit' (+), 'charge' or 'withdrawal' (−) (SPEC §4).
    .addColumn('type', 'text', (c) => c.notNull())
    // 'completed', 'cancelled' or 'error' (SPEC §4).
    .addColumn('status', 'text', (c) => c.notNull())
    // Always positive; the type gives the sign.
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    // 'stripe', 'paystack', 'paypal', 'balance' or 'system' (an admin's gift).
    .addColumn('driver', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('invoice_id', 'text', (c) => c.references('invoices.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('transactions_user').on('transactions').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('transactions_created').on('transactions').column('created_at').execute();

  await db.schema
    .createTable('failed_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subscription_id', 'text', (c) => c.references('subscriptions.id').onDelete('set null'))
    .addColumn('invoice_id', 'text', (c) => c.references('invoices.id').onDelete('set null'))
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('driver', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    // Set when the amount is paid; the account is limited while 3 or more are unresolved (SPEC §9).
    .addColumn('resolved_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('failed_payments_user').on('failed_payments').columns(['user_id', 'resolved_at']).execute();

  await db.schema
    .createTable('payment_events')
    // Webhooks are idempotent by the provider's event id: a second delivery finds its row.
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_events_pk', ['provider', 'event_id'])
    .execute();

  await db.schema
    .createTable('usage_days')
    // One row per metered user and UTC day, written once by the daily job (idempotent per day).
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('storage_bytes', 'bigint', (c) => c.notNull())
    .addColumn('bandwidth_bytes', 'bigint', (c) => c.notNull())
    .addColumn('members', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_days_pk', ['user_id', 'day'])
    .execute();

  await db.schema
    .createTable('bandwidth_counters')
    // Bytes downloaded from a user's files per UTC day, added to as downloads finish.
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('bandwidth_counters_pk', ['user_id', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['bandwidth_counters', 'usage_days', 'payment_events', 'failed_payments', 'transactions', 'invoices', 'billing_accounts', 'subscriptions', 'plans']) {
    await db.schema.dropTable(table).execute();
  }
}
