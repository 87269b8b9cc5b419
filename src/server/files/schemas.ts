import { z } from 'zod';
import { checkName } from './names.ts';
import { SORT_FIELDS, TRASH_SORT_FIELDS, type Cursor } from './queries.ts';

/** Input shapes of the item endpoints; every one refuses what it does not expect with a 422. */

export const idField = z.string({ error: 'The id must be text.' }).trim().min(1, 'The id is required.').max(100, 'The id is not valid.');

export const nameField = z.string({ error: 'The name field is required.' }).transform((raw, ctx) => {
  const checked = checkName(raw);
  if (!checked.ok) {
    ctx.addIssue({ code: 'custom', message: checked.message });
    return z.NEVER;
  }
  return checked.name;
});

/** A plain emoji string or the picker's object; stored as JSON text. */
const emojiField = z
  .union([z.string().trim().max(64, 'The emoji is too long.'), z.record(z.string(), z.unknown())], { error: 'The emoji must be text or an emoji object.' })
  .nullable()
  .refine((v) => v === null || JSON.stringify(v).length <= 2048, 'The emoji is too long.')
  .transform((v) => (v === null || v === '' ? null : JSON.stringify(v)));

const colorField = z
  .string({ error: 'The color must be text.' })
  .trim()
  .regex(/^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i, 'The color must be a hex colour like #00bc7e.')
  .nullable();

/** A folder reference where null, '' and 'all' mean the home folder. */
const folderRef = z
  .union([idField, z.literal(''), z.null()], { error: 'The folder id is not valid.' })
  .optional()
  .transform((v) => (v === undefined || v === null || v === '' || v === 'all' ? null : v));

const itemType = z.enum(['folder', 'file'], { error: 'The type must be folder or file.' });

const itemList = <T extends z.ZodRawShape>(extra: T) =>
  z
    .array(z.object({ id: idField, type: itemType, ...extra }), { error: 'The items must be a list of {id, type}.' })
    .min(1, 'Choose at least one item.')
    .max(1000, 'At most 1000 items at a time.');

export const CreateFolderInput = z.object({ name: nameField, emoji: emojiField.optional(), parent_id: folderRef });

export const RenameInput = z
  .object({ name: nameField.optional(), emoji: emojiField.optional(), color: colorField.optional(), type: itemType.optional() })
  .refine((v) => v.name !== undefined || v.emoji !== undefined || v.color !== undefined, { message: 'Send a name, an emoji or a color.', path: ['name'] });

export const MoveInput = z.object({ to_id: folderRef, items: itemList({}) });

export const RemoveInput = z.object({ items: itemList({ force_delete: z.boolean({ error: 'force_delete must be true or false.' }).optional().default(false) }) });

export const RestoreInput = z.object({
  to_home: z.boolean({ error: 'to_home must be true or false.' }).optional().default(false),
  items: itemList({}),
});

export const FavouritesInput = z.object({
  folders: z
    .array(z.union([idField, z.object({ id: idField }).transform((v) => v.id)]), { error: 'The folders must be a list of folder ids.' })
    .min(1, 'Choose at least one folder.')
    .max(1000, 'At most 1000 folders at a time.'),
});

const cursorField = z
  .string()
  .max(2000)
  .transform((raw, ctx) => {
    try {
      const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
      if (Array.isArray(value) && value.length === 3 && typeof value[0] === 'string' && ['string', 'number'].includes(typeof value[1]) && typeof value[2] === 'string') {
        return value as Cursor;
      }
    } catch {
      /* refused below */
    }
    ctx.addIssue({ code: 'custom', message: 'The cursor is not valid.' });
    return z.NEVER;
  });

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

const listQuery = <F extends readonly [string, ...string[]]>(fields: F) =>
  z.object({
    sort: z.enum(fields, { error: `The sort must be one of ${fields.join(', ')}.` }).default('created_at' as F[number]),
    direction: z
      .string()
      .toLowerCase()
      .pipe(z.enum(['asc', 'desc'], { error: 'The direction must be asc or desc.' }))
      .default('desc'),
    limit: z.coerce.number({ error: 'The limit must be a number.' }).int('The limit must be a whole number.').min(1, 'The limit must be at least 1.').max(1000, 'The limit may not be greater than 1000.').optional(),
    cursor: cursorField.optional(),
  });

export const ListQuery = listQuery(SORT_FIELDS);
/** The trash also sorts by where things were. */
export const TrashListQuery = listQuery(TRASH_SORT_FIELDS);

export const SearchQuery = z.object({
  query: z.string({ error: 'The query field is required.' }).trim().min(1, 'The query field is required.').max(255, 'The query may not be greater than 255 characters.'),
});

/** The navigation tree's query: one folder's subfolders (`parent_id`), or the top with the branches down to `open`. */
export const TreeQuery = z
  .object({ parent_id: idField.optional(), open: idField.optional() })
  .refine((q) => !(q.parent_id && q.open), { message: 'Ask for parent_id or open, not both.', path: ['open'] })
  .transform((q) => ({ parentId: q.parent_id, open: q.open }));

/** Sort, direction and paging from a list endpoint's query string (`trash`: the trash's sorts). */
export function listOptions(query: URLSearchParams, parse: <S extends z.ZodType>(schema: S, input: unknown) => z.infer<S>, { trash = false } = {}) {
  const { sort, direction, limit, cursor } = parse(trash ? TrashListQuery : ListQuery, Object.fromEntries(query));
  return { sort: { field: sort, direction }, limit, after: cursor };
}

/** An optional `{id}` route part where none and `all` mean the top (home, or the top of the trash). */
export function folderParam(id: string | undefined): string | null {
  return id === undefined || id === '' || id === 'all' ? null : id;
}
