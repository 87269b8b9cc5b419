import { badRequest } from './errors.ts';

/**
 * Keyset paging for long lists (the admin's users, the audit log): the client sends back the
 * opaque `cursor` of the last page, and the next page starts after that row's sort key, so page
 * 4,000 of 100,000 users costs the same as page 1.
 */
export interface PageRequest {
  limit: number;
  /** The sort key of the last row already shown (decoded from the cursor), or null for page 1. */
  after: (string | number | null)[] | null;
}

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/** Reads `limit` (1–100, default 25) and `cursor` from a query string; bad values answer 400. */
export function pageRequest(query: URLSearchParams, keyLength: number): PageRequest {
  const rawLimit = query.get('limit');
  let limit = DEFAULT_PAGE_SIZE;
  if (rawLimit !== null && rawLimit !== '') {
    if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > MAX_PAGE_SIZE) throw badRequest(`The limit must be a whole number from 1 to ${MAX_PAGE_SIZE}.`);
    limit = Number(rawLimit);
  }
  const cursor = query.get('cursor');
  return { limit, after: cursor ? decodeCursor(cursor, keyLength) : null };
}

export function encodeCursor(key: (string | number | null)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor(cursor: string, keyLength: number): (string | number | null)[] {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('The cursor is not valid. Start again from the first page.');
  }
  if (!Array.isArray(key) || key.length !== keyLength || !key.every((v) => v === null || typeof v === 'string' || typeof v === 'number')) {
    throw badRequest('The cursor is not valid. Start again from the first page.');
  }
  return key as (string | number | null)[];
}

/**
 * A JSON:API-shaped page: `rows` fetched with `limit + 1` tells whether another page follows;
 * `keyOf` gives the sort key of a row for the next cursor; `self` (the request's path and query)
 * gives `links.next`, the same query with the next cursor.
 */
export function keysetPage<R, D>(
  rows: R[],
  page: PageRequest,
  keyOf: (row: R) => (string | number | null)[],
  present: (row: R) => D,
  self?: { path: string; query: URLSearchParams },
) {
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  const next = more && shown.length ? encodeCursor(keyOf(shown[shown.length - 1]!)) : null;
  let nextLink: string | null = null;
  if (next && self) {
    const query = new URLSearchParams(self.query);
    query.set('cursor', next);
    nextLink = `${self.path}?${query}`;
  }
  return {
    data: shown.map(present),
    meta: { next_cursor: next, per_page: page.limit },
    links: { next: nextLink },
  };
}
