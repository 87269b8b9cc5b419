import type { Kysely } from 'kysely';

// The languages people may pick: the built-in catalogues (messages/*.json, seeded here; which ones
// are built in is the code's business) and those an admin adds, and the strings an admin overrides
// in any language. `version` counts a language's string changes, so every server process can tell
// that its cached merged catalogue is stale without asking anyone else.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('languages')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('rtl', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('translation_overrides')
    .addColumn('language_code', 'text', (c) => c.notNull().references('languages.code').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('translation_overrides_pk', ['language_code', 'key'])
    .execute();

  const now = new Date().toISOString();
  await db
    .insertInto('languages')
    .values([
      { code: 'en', name: 'English', rtl: 0, version: 0, created_at: now, updated_at: now },
      { code: 'de', name: 'Deutsch', rtl: 0, version: 0, created_at: now, updated_at: now },
    ])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('translation_overrides').execute();
  await db.schema.dropTable('languages').execute();
}
