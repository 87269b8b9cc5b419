import type { Kysely } from 'kysely';

// Windows of the database rate limits (src/server/limits/db-store.ts) that have ended are pruned as
// new counts come in: found by their end.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('rate_limits_reset_at').on('rate_limits').column('reset_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('rate_limits_reset_at').execute();
}
