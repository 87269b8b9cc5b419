import type { Kysely } from 'kysely';

// Team folders (one of the owner's folders made a team), their members and their invitations.
// Portable column types only; timestamps are ISO text like everywhere else.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('teams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // The team folder's item id: a folder is the root of at most one team.
    .addColumn('folder_id', 'text', (c) => c.notNull().unique().references('items.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('teams_owner').on('teams').column('owner_id').execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'can_edit' or 'can_view' (SPEC §4); the owner is 'master' and has no row.
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user').on('team_members').column('user_id').execute();

  await db.schema
    .createTable('team_invitations')
    // The id is the unguessable token of the invitation link (/team-folder-invitation/:id).
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    // Normalised: trimmed, lower case.
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('inviter_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    // pending, accepted, declined or revoked; 'expired' is read from expires_at.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('responded_at', 'text')
    .execute();
  await db.schema.createIndex('team_invitations_team').on('team_invitations').columns(['team_id', 'status']).execute();
  await db.schema.createIndex('team_invitations_email').on('team_invitations').columns(['email', 'status']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('team_invitations').execute();
  await db.schema.dropTable('team_members').execute();
  await db.schema.dropTable('teams').execute();
}
