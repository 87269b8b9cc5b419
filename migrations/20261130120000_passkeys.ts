import type { Kysely } from 'kysely';

// Passkeys (WebAuthn credentials, auth/passkeys.ts) and the WebAuthn challenges waiting for an answer
// (auth/webauthn-challenges.ts). Challenges live in the database, not in a process, so the options
// and the answer may reach different app nodes; each is deleted when it is used, and swept when old.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    // The credential id as the authenticator made it, base64url.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // The COSE public key, base64url.
    .addColumn('public_key', 'text', (c) => c.notNull())
    // The authenticator's signature counter; 0 for those that keep none (most synced passkeys).
    .addColumn('counter', 'integer', (c) => c.notNull())
    // JSON array of transports ('internal', 'usb', 'hybrid', …) the browser reported, hints for later prompts.
    .addColumn('transports', 'text', (c) => c.notNull())
    // 'singleDevice' or 'multiDevice' (a synced passkey), and whether it is backed up now.
    .addColumn('device_type', 'text', (c) => c.notNull())
    .addColumn('backed_up', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
  await db.schema
    .createTable('webauthn_challenges')
    // SHA-256 of the challenge, hex: the answer's clientDataJSON names the challenge, which finds the row.
    .addColumn('id', 'text', (c) => c.primaryKey())
    // The account it is for; null for a sign-in with a passkey alone (nobody is known yet).
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    // 'register', 'sign-in' or 'second-step': a challenge answers only what it was made for.
    .addColumn('purpose', 'text', (c) => c.notNull())
    // The challenge as sent to the browser, base64url.
    .addColumn('challenge', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webauthn_challenges_expiry').on('webauthn_challenges').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webauthn_challenges').execute();
  await db.schema.dropTable('passkeys').execute();
}
