import { sql, type Kysely } from 'kysely';

// One provider subscription is one row: two deliveries of its first paid invoice at once cannot
// both insert (subscriptions.ts startSubscription finds the winner's row on the conflict). Rows
// without a provider (metered plans paid from the balance) have no provider_ref and are not covered.
// failed_payments.debt_ref: the provider's id of what is owed (Stripe's invoice, Paystack's invoice
// code), so each retry of one renewal counts as a failed payment (SPEC §9) but is owed once.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('subscriptions_provider_ref_unique')
    .on('subscriptions')
    .columns(['driver', 'provider_ref'])
    .unique()
    .where(sql.ref('provider_ref'), 'is not', null)
    .execute();
  await db.schema.alterTable('failed_payments').addColumn('debt_ref', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('failed_payments').dropColumn('debt_ref').execute();
  await db.schema.dropIndex('subscriptions_provider_ref_unique').execute();
}
