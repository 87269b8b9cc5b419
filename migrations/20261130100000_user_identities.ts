import type { Kysely } from 'kysely';

// Accounts at social and OpenID Connect providers linked to a user (auth/identities.ts). A provider's
// account (provider, subject) belongs to at most one user; a user links each provider once.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_identities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'google', 'facebook', 'github', or 'oidc:<issuer id>'.
    .addColumn('provider', 'text', (c) => c.notNull())
    // The provider's stable id of the account (OpenID Connect's `sub`), never the email.
    .addColumn('subject', 'text', (c) => c.notNull())
    // The email the provider gave when it was linked, shown in settings; null if it gave none.
    .addColumn('email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addUniqueConstraint('user_identities_subject', ['provider', 'subject'])
    .addUniqueConstraint('user_identities_user_provider', ['user_id', 'provider'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_identities').execute();
}
