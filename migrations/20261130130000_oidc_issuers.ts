import type { Kysely } from 'kysely';

// OpenID Connect identity providers an admin configured (auth/oidc/issuers.ts). The id is the slug
// in /api/oidc/<id>/… and in linked identities ('oidc:<id>'), so it never changes once made.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oidc_issuers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('label', 'text', (c) => c.notNull())
    // The issuer identifier; discovery reads <issuer>/.well-known/openid-configuration.
    .addColumn('issuer_url', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    // Encrypted (settings/secrets.ts sealSecret); '' when none is set.
    .addColumn('client_secret', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    // At most one row has 1: password sign-in is then for admins only (auth/oidc/only-provider.ts).
    .addColumn('sign_in_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oidc_issuers').execute();
}
