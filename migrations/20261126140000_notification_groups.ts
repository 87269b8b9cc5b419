import type { Kysely } from 'kysely';

// Notifications that gather several events of one kind (the files of one upload session) into one
// entry: what they gather under, and how many they hold.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notifications').addColumn('group_key', 'text').execute();
  await db.schema.alterTable('notifications').addColumn('count', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.createIndex('notifications_group').on('notifications').columns(['user_id', 'group_key']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('notifications_group').execute();
  await db.schema.alterTable('notifications').dropColumn('count').execute();
  await db.schema.alterTable('notifications').dropColumn('group_key').execute();
}
