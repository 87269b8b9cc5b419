import type { Kysely } from 'kysely';

// The public site's pages (SPEC §2 /page/:slug), Markdown edited by admins later, and the installation
// state of instances that already had an admin before the setup wizard existed.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pages')
    .addColumn('slug', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('visible', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  const now = new Date().toISOString();
  await db
    .insertInto('pages')
    .values(SEEDED_PAGES.map((p) => ({ ...p, visible: 1, created_at: now, updated_at: now })))
    .execute();

  const admin = await db.selectFrom('users').select('id').where('role', '=', 'admin').limit(1).executeTakeFirst();
  if (admin) {
    await db.insertInto('settings').values({ key: 'installation', value: JSON.stringify('installation-done') }).onConflict((oc) => oc.column('key').doNothing()).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('pages').execute();
}

const SEEDED_PAGES = [
  {
    slug: 'terms-of-service',
    title: 'Terms of Service',
    content: `These terms govern your use of this service. By creating an account you agree to them.

## Your account

You are responsible for the activity on your account and for keeping your password safe.

## Your files

You keep every right to the files you upload. We store and process them only to provide the service to you.

## Acceptable use

Do not upload content that is illegal or that infringes the rights of others, and do not try to disrupt the service.

## Changes

We may update these terms. When we do, we change the date at the top of this page.`,
  },
  {
    slug: 'privacy-policy',
    title: 'Privacy Policy',
    content: `This policy explains what we collect and why.

## What we collect

- Your name and email address, to run your account.
- The files you upload, to store and share them as you ask.
- Basic logs (addresses and times of requests), to keep the service secure.

## What we do not do

We do not sell your data and we do not show you third-party advertising based on it.

## Your rights

You can download your files and delete your account at any time. Contact us through the contact page with any question.`,
  },
  {
    slug: 'cookie-policy',
    title: 'Cookie Policy',
    content: `We use a small number of cookies, all of them needed for the service to work.

| Cookie | Purpose |
|---|---|
| \`session\` | keeps you signed in |
| \`locale\` | remembers your language |

We do not use advertising or tracking cookies.`,
  },
];
