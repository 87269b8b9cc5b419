import type { Kysely } from 'kysely';

// The second step of a sign-in (auth/second-step.ts): a first step that passed (a password, a social
// or OpenID Connect provider) for an account with two-factor authentication leaves a short-lived
// challenge instead of a session. Only the token's hash is stored; the row is deleted when the
// second step passes, when it fails too often, or when it expires.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sign_in_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 1: the session to make is a "remember me" one.
    .addColumn('persistent', 'integer', (c) => c.notNull())
    // How the first step passed: 'password', 'social:<provider>', 'oidc:<issuer id>'.
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_challenges_user').on('sign_in_challenges').column('user_id').execute();
  // When the account turned two-factor authentication on; null while it is off.
  await db.schema.alterTable('users').addColumn('two_factor_enabled_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('two_factor_enabled_at').execute();
  await db.schema.dropTable('sign_in_challenges').execute();
}
