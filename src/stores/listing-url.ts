/**
 * Where a listing's pages are asked for: pure, with no store behind it, so the server can name the
 * opening screen's first page in the app's document (src/server/config/first-listing.ts) exactly as
 * the file area will ask for it.
 */

/**
 * Where a listing comes from. `team` is the owner's team folders (id null: the list of them),
 * `shared` the team folders the user is a member of (SPEC §2 shared-with-me).
 */
export type Source =
  | { kind: 'folder'; id: string | null }
  | { kind: 'trash'; id: string | null }
  | { kind: 'latest' }
  | { kind: 'team'; id: string | null }
  | { kind: 'shared'; id: string | null };

export interface Sorting {
  /** `location` (where a trashed item was) sorts the trash only; elsewhere it reads as the date. */
  field: 'created_at' | 'name' | 'size' | 'type' | 'location';
  direction: 'asc' | 'desc';
}
export const SORT_FIELDS: readonly Sorting['field'][] = ['created_at', 'name', 'size', 'type', 'location'];
export const SORT_DEFAULT: Sorting = { field: 'created_at', direction: 'desc' };
export const PAGE_SIZE = 200;

/** Whether a saved value is a sorting (a hand-edited or old one is not, and the default applies). */
export function isSorting(value: unknown): value is Sorting {
  const s = value as Sorting | null;
  return !!s && SORT_FIELDS.includes(s.field) && (s.direction === 'asc' || s.direction === 'desc');
}

export const isTeamSource = (source: Source): source is { kind: 'team' | 'shared'; id: string | null } => source.kind === 'team' || source.kind === 'shared';

/** The sorting that applies to a listing: outside the trash there is no location to sort by. */
export function sortingFor(source: Source, sorting: Sorting): Sorting {
  return sorting.field === 'location' && source.kind !== 'trash' ? SORT_DEFAULT : sorting;
}

const TEAM_BASES = { team: '/api/teams/folders', shared: '/api/teams/shared-with-me' } as const;

/** The address of a listing's page: the first (cursor null) or the one a cursor points to. */
export function listUrl(source: Source, sorting: Sorting, cursor: string | null): string {
  if (source.kind === 'latest') return '/api/browse/latest';
  if (isTeamSource(source) && source.id === null) {
    // The lists of team folders are keyset pages by name (at most 100 each).
    const q = new URLSearchParams({ limit: '100' });
    if (cursor) q.set('cursor', cursor);
    return `${TEAM_BASES[source.kind]}?${q}`;
  }
  const { field, direction } = sortingFor(source, sorting);
  // The trash's date is the deletion date: "by date" there means by when things went there.
  const sort = source.kind === 'trash' && field === 'created_at' ? 'deleted_at' : field;
  const q = new URLSearchParams({ sort, direction, limit: String(PAGE_SIZE) });
  if (cursor) q.set('cursor', cursor);
  const base = isTeamSource(source) ? TEAM_BASES[source.kind] : source.kind === 'folder' ? '/api/browse/folders' : '/api/browse/trash';
  return `${base}/${encodeURIComponent(source.id ?? 'all')}?${q}`;
}

/** The listing a screen of the app opens with (its route and parameters), or null for a screen without one. */
export function openingSource(route: string | undefined, params: Record<string, string | undefined>): Source | null {
  const id = params.id || null;
  if (route === 'files') return { kind: 'folder', id };
  if (route === 'trash') return { kind: 'trash', id };
  if (route === 'recent') return { kind: 'latest' };
  if (route === 'teamFolders') return { kind: 'team', id };
  if (route === 'sharedWithMe') return { kind: 'shared', id };
  return null;
}
