import type { Kysely } from 'kysely';

// The user's "notification sound" preference (SPEC §2: a sound plays when a notification arrives,
// unless the user muted it): 1 plays it, 0 is muted.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('notification_sound', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('notification_sound').execute();
}
