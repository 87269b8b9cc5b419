import { z } from 'zod';
import { isPageSlug, PAGE_SLUG_MAX, RESERVED_PAGE_SLUGS } from '../site/pages.ts';

/** Input shapes of the admin's page endpoints; anything else is refused with a 422 naming the field. */

export const PAGE_TITLE_MAX = 200;
/** Long legal texts fit many times over; the body limit of the API is far above this. */
export const PAGE_CONTENT_MAX = 100_000;

const slugField = z
  .string({ error: (issue) => (issue.input === undefined ? 'The slug is required.' : 'The slug must be text.') })
  .trim()
  .min(1, 'The slug is required.')
  .max(PAGE_SLUG_MAX, `The slug may be at most ${PAGE_SLUG_MAX} characters.`)
  .superRefine((slug, ctx) => {
    if (!slug || slug.length > PAGE_SLUG_MAX) return;
    if (/[A-Z]/.test(slug)) ctx.addIssue({ code: 'custom', message: 'The slug must be lowercase.' });
    else if (!isPageSlug(slug)) ctx.addIssue({ code: 'custom', message: 'The slug may contain only lowercase letters, digits and single dashes between words.' });
    else if (RESERVED_PAGE_SLUGS.includes(slug)) ctx.addIssue({ code: 'custom', message: `The slug "${slug}" is reserved: choose another.` });
  });

const titleField = z
  .string({ error: (issue) => (issue.input === undefined ? 'The title is required.' : 'The title must be text.') })
  .trim()
  .min(1, 'The title is required.')
  .max(PAGE_TITLE_MAX, `The title may be at most ${PAGE_TITLE_MAX} characters.`);

const contentField = z.string({ error: 'The content must be text.' }).max(PAGE_CONTENT_MAX, `The content may be at most ${PAGE_CONTENT_MAX.toLocaleString('en')} characters.`);

const visibleField = z.boolean({ error: 'Visible must be true or false.' });

export const createPageSchema = z.object({
  title: titleField,
  slug: slugField,
  content: contentField.default(''),
  visible: visibleField.default(true),
});

export const updatePageSchema = z
  .object({
    title: titleField.optional(),
    slug: slugField.optional(),
    content: contentField.optional(),
    visible: visibleField.optional(),
  })
  .refine((v) => Object.values(v).some((field) => field !== undefined), { message: 'Send at least one of title, slug, content and visible.' });

export const previewSchema = z.object({ content: contentField });
