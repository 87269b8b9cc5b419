import type { User } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { badRequest } from '../../http/errors.ts';
import { keysetPage, pageRequest } from '../../http/keyset.ts';
import { requireAdmin } from '../guard.ts';
import { presentAdminUser } from './presenter.ts';
import { listUserRows, SORTS, type Direction, type UserSort } from './queries.ts';

const SEARCH_MAX = 255;
const BAD_CURSOR = 'The cursor is not valid. Start again from the first page.';

/**
 * The admin's user list: `search` (a part of the name or email), `sort` (name, email, created_at,
 * last_signed_in_at, storage_used; default created_at), `direction` (asc, desc; default desc for
 * dates and storage, asc for names), keyset-paged with `limit` and `cursor`. A cursor names the
 * order it was made for, so one from another order is refused rather than misread.
 */
export async function listUsers(ctx: AppContext, user: User, query: URLSearchParams) {
  requireAdmin(user);
  const sort = (query.get('sort') || 'created_at') as UserSort;
  if (!SORTS.includes(sort)) throw badRequest(`The sort must be one of ${SORTS.join(', ')}.`);
  const direction = (query.get('direction') || (sort === 'name' || sort === 'email' ? 'asc' : 'desc')) as Direction;
  if (direction !== 'asc' && direction !== 'desc') throw badRequest('The direction must be asc or desc.');
  const search = (query.get('search') ?? '').trim();
  if (search.length > SEARCH_MAX) throw badRequest(`The search may not be longer than ${SEARCH_MAX} characters.`);
  if (search.includes('\u0000')) throw badRequest('The search may not contain NUL characters.');

  const order = `${sort}:${direction}`;
  const page = pageRequest(query, 3);
  let after: [string | number, string] | null = null;
  if (page.after) {
    const [cursorOrder, value, id] = page.after;
    const valueFits = sort === 'storage_used' ? typeof value === 'number' && Number.isSafeInteger(value) : typeof value === 'string';
    if (cursorOrder !== order || !valueFits || typeof id !== 'string') throw badRequest(BAD_CURSOR);
    after = [value as string | number, id];
  }
  const rows = await listUserRows(ctx.db, { search: search || null, sort, direction, after, limit: page.limit });
  const self = { path: '/api/admin/users', query: new URLSearchParams({ ...(search ? { search } : {}), sort, direction, limit: String(page.limit) }) };
  const result = keysetPage(rows, page, (row) => [order, sort === 'storage_used' ? Number(row.sort_key) : String(row.sort_key), row.id], presentAdminUser, self);
  return { ...result, meta: { ...result.meta, sort, direction, search } };
}
