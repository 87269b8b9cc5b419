import type { Kysely } from 'kysely';
import type { Database } from '../../../db/index.ts';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { badRequest, notFound, validationError } from '../http/errors.ts';
import { keysetPage, pageRequest } from '../http/keyset.ts';
import type { Body } from '../http/endpoint.ts';
import { validate } from '../http/validate.ts';
import { renderMarkdown } from '../site/markdown.ts';
import { isPageSlug, LEGAL_PAGE_SLUGS } from '../site/pages.ts';
import { recordAudit } from './audit.ts';
import { requireAdmin } from './guard.ts';
import { createPageSchema, previewSchema, updatePageSchema } from './page-schemas.ts';

/** The admin's use cases for the public site's pages (/page/:slug and the footer). */

interface PageRow {
  slug: string;
  title: string;
  content: string;
  visible: number;
  created_at: string;
  updated_at: string;
}

const pageNotFound = () => notFound('The page was not found.');
const slugTaken = () => validationError({ slug: ['A page with this slug already exists.'] });

/** SQLite and PostgreSQL words for a second row with the same slug (a create or rename racing another). */
function isDuplicateKey(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

function present(row: Omit<PageRow, 'content'> & { content?: string }) {
  const legal = LEGAL_PAGE_SLUGS.includes(row.slug);
  return {
    id: row.slug,
    type: 'page',
    attributes: {
      slug: row.slug,
      title: row.title,
      ...(row.content !== undefined ? { content: row.content } : {}),
      visible: Number(row.visible) === 1,
      legal,
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
    // What this admin may do with the page, so the editor does not re-derive the rule.
    meta: { can_delete: !legal, can_change_slug: !legal },
  };
}

/** What the audit log keeps of a page: everything an admin can change. */
const auditValues = (row: PageRow) => ({ slug: row.slug, title: row.title, content: row.content, visible: Number(row.visible) === 1 });

function findPage(db: Kysely<Database>, slug: string): Promise<PageRow | undefined> {
  return db.selectFrom('pages').select(['slug', 'title', 'content', 'visible', 'created_at', 'updated_at']).where('slug', '=', slug).executeTakeFirst();
}

/** Every page, by slug, keyset-paged; without the content, which the editor loads on its own. */
export async function listPages(ctx: AppContext, user: User, query: URLSearchParams) {
  requireAdmin(user);
  const page = pageRequest(query, 1);
  let q = ctx.db.selectFrom('pages').select(['slug', 'title', 'visible', 'created_at', 'updated_at']);
  if (page.after) {
    const [after] = page.after;
    if (typeof after !== 'string') throw badRequest('The cursor is not valid. Start again from the first page.');
    q = q.where('slug', '>', after);
  }
  const rows = await q.orderBy('slug').limit(page.limit + 1).execute();
  return keysetPage(rows, page, (row) => [row.slug], present, { path: '/api/admin/pages', query });
}

export async function getPage(ctx: AppContext, user: User, slug: string | undefined) {
  requireAdmin(user);
  if (!isPageSlug(slug)) throw pageNotFound();
  const row = await findPage(ctx.db, slug);
  if (!row) throw pageNotFound();
  return { data: present(row) };
}

export async function createPage(ctx: AppContext, user: User, body: Body) {
  requireAdmin(user);
  const input = validate(createPageSchema, body);
  const now = ctx.clock.now().toISOString();
  const row: PageRow = { slug: input.slug, title: input.title, content: input.content, visible: input.visible ? 1 : 0, created_at: now, updated_at: now };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (await findPage(trx, input.slug)) throw slugTaken();
      await trx.insertInto('pages').values(row).execute();
      await recordAudit(ctx, trx, user, { action: 'page.create', target_type: 'page', target_id: row.slug, target_label: row.title, after: auditValues(row) });
    });
  } catch (error) {
    if (isDuplicateKey(error)) throw slugTaken();
    throw error;
  }
  return { data: present(row) };
}

/** Changes any of title, slug, content and visibility; a legal page keeps its slug. */
export async function updatePage(ctx: AppContext, user: User, slug: string | undefined, body: Body) {
  requireAdmin(user);
  if (!isPageSlug(slug)) throw pageNotFound();
  const input = validate(updatePageSchema, body);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const before = await findPage(trx, slug);
      if (!before) throw pageNotFound();
      const after: PageRow = {
        ...before,
        slug: input.slug ?? before.slug,
        title: input.title ?? before.title,
        content: input.content ?? before.content,
        visible: input.visible === undefined ? Number(before.visible) : input.visible ? 1 : 0,
      };
      if (after.slug !== before.slug) {
        if (LEGAL_PAGE_SLUGS.includes(before.slug)) throw validationError({ slug: ['This legal page keeps its address: other pages link to it.'] });
        if (await findPage(trx, after.slug)) throw slugTaken();
      }
      const changed = (['slug', 'title', 'content', 'visible'] as const).some((field) => String(after[field]) !== String(before[field]));
      if (!changed) return { data: present(before) };
      after.updated_at = ctx.clock.now().toISOString();
      await trx
        .updateTable('pages')
        .set({ slug: after.slug, title: after.title, content: after.content, visible: after.visible, updated_at: after.updated_at })
        .where('slug', '=', before.slug)
        .execute();
      await recordAudit(ctx, trx, user, { action: 'page.update', target_type: 'page', target_id: after.slug, target_label: after.title, before: auditValues(before), after: auditValues(after) });
      return { data: present(after) };
    });
  } catch (error) {
    if (isDuplicateKey(error)) throw slugTaken();
    throw error;
  }
}

/** Deletes a page; the legal pages can be emptied but not deleted. */
export async function deletePage(ctx: AppContext, user: User, slug: string | undefined): Promise<void> {
  requireAdmin(user);
  if (!isPageSlug(slug)) throw pageNotFound();
  await ctx.db.transaction().execute(async (trx) => {
    const before = await findPage(trx, slug);
    if (!before) throw pageNotFound();
    if (LEGAL_PAGE_SLUGS.includes(before.slug)) throw validationError({ slug: ['This legal page cannot be deleted. You can change or empty its text instead.'] });
    await trx.deleteFrom('pages').where('slug', '=', before.slug).execute();
    await recordAudit(ctx, trx, user, { action: 'page.delete', target_type: 'page', target_id: before.slug, target_label: before.title, before: auditValues(before) });
  });
}

/** The editor's preview: the public page's own renderer, so what the admin sees is what visitors get. */
export function previewPage(_ctx: AppContext, user: User, body: Body) {
  requireAdmin(user);
  const { content } = validate(previewSchema, body);
  return { data: { html: renderMarkdown(content) } };
}
