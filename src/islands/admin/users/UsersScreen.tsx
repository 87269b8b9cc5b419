import { useStore } from '@nanostores/react';
import { ArrowDownWideNarrow, ArrowUpNarrowWide, Search, UserPlus, Users } from 'lucide-react';
import { atom } from 'nanostores';
import { useEffect, useId, useRef, useState } from 'react';
import { Avatar } from '../../../components/Avatar.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useTitle } from '../../../components/useTitle.ts';
import { formatDate, formatDateTime } from '../../../stores/dates.ts';
import { formatSize } from '../../../stores/files.ts';
import { useT } from '../../../stores/i18n.ts';
import { listUsers, type AdminUser, type Direction, type UserSort } from './client.ts';
import { RoleBadge } from './RoleBadge.tsx';

const SORTS: UserSort[] = ['name', 'email', 'created_at', 'last_signed_in_at', 'storage_used'];
const naturalDirection = (sort: UserSort): Direction => (sort === 'name' || sort === 'email' ? 'asc' : 'desc');

/** The list's query, kept while the admin opens a user and comes back. */
const $query = atom<{ search: string; sort: UserSort; direction: Direction }>({ search: '', sort: 'created_at', direction: 'desc' });

type List = { rows: AdminUser[]; next: string | null };

/** /admin/users: every account, searched, sorted and paged from the server (keyset), 25 at a time. */
export default function UsersScreen() {
  const t = useT();
  useTitle(t('admin_users.title'));
  const query = useStore($query);
  const [typed, setTyped] = useState(query.search);
  const [list, setList] = useState<List | null>(null);
  const [loading, setLoading] = useState<'page' | 'more' | null>('page');
  const [error, setError] = useState('');
  const latest = useRef(0);
  const searchId = useId();
  const sortId = useId();

  // Typing settles for a moment before the server is asked.
  useEffect(() => {
    if (typed === query.search) return;
    const timer = setTimeout(() => $query.set({ ...$query.get(), search: typed }), 250);
    return () => clearTimeout(timer);
  }, [typed, query.search]);

  const load = (cursor: string | null) => {
    const ticket = ++latest.current;
    setLoading(cursor ? 'more' : 'page');
    setError('');
    listUsers({ ...query, cursor }).then(
      (page) => {
        if (ticket !== latest.current) return;
        setList((old) => ({ rows: cursor && old ? [...old.rows, ...page.data] : page.data, next: page.meta.next_cursor }));
        setLoading(null);
      },
      (err: unknown) => {
        if (ticket !== latest.current) return;
        setError(err instanceof Error ? err.message : String(err));
        setLoading(null);
      },
    );
  };
  useEffect(() => {
    load(null);
  }, [query.search, query.sort, query.direction]);

  const DirectionIcon = query.direction === 'asc' ? ArrowUpNarrowWide : ArrowDownWideNarrow;
  return (
    <div>
      <PageHeader
        title={t('admin_users.title')}
        subtitle={t('admin_users.subtitle')}
        actions={
          <a href="/admin/user/create" className="btn-primary">
            <UserPlus className="size-4" aria-hidden />
            {t('admin_users.create')}
          </a>
        }
      />
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <div className="min-w-[220px] flex-1">
          <label className="label" htmlFor={searchId}>
            {t('admin_users.search')}
          </label>
          <div className="relative">
            <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted" aria-hidden />
            <input
              id={searchId}
              type="search"
              className="input pl-9"
              value={typed}
              maxLength={255}
              placeholder={t('admin_users.search_placeholder')}
              onChange={(e) => setTyped(e.target.value)}
            />
          </div>
        </div>
        <div className="flex items-end gap-2">
          <div>
            <label className="label" htmlFor={sortId}>
              {t('admin_users.sort_by')}
            </label>
            <select id={sortId} className="input pr-8" value={query.sort} onChange={(e) => $query.set({ ...query, sort: e.target.value as UserSort, direction: naturalDirection(e.target.value as UserSort) })}>
              {SORTS.map((sort) => (
                <option key={sort} value={sort}>
                  {t(`admin_users.sort_${sort}`)}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            className="btn-secondary h-[46px] px-3"
            onClick={() => $query.set({ ...query, direction: query.direction === 'asc' ? 'desc' : 'asc' })}
            aria-label={query.direction === 'asc' ? t('admin_users.ascending') : t('admin_users.descending')}
            title={query.direction === 'asc' ? t('admin_users.ascending') : t('admin_users.descending')}
          >
            <DirectionIcon className="size-5" aria-hidden />
          </button>
        </div>
      </div>

      {error && (
        <p role="alert" className="notice-danger mb-4">
          {error}
        </p>
      )}
      <section className="card overflow-hidden" aria-busy={loading === 'page'}>
        {!list && loading && (
          <div className="flex justify-center py-16">
            <Spinner label={t('app.loading')} />
          </div>
        )}
        {list && list.rows.length === 0 && (
          <div className="flex flex-col items-center gap-3 px-6 py-14 text-center">
            <span className="flex size-12 items-center justify-center rounded-2xl bg-surface-2 text-muted">
              <Users className="size-6" aria-hidden />
            </span>
            <p className="text-sm text-muted">{query.search ? t('admin_users.no_match', { search: query.search }) : t('admin_users.empty')}</p>
          </div>
        )}
        {list && list.rows.length > 0 && <UserTable rows={list.rows} dimmed={loading === 'page'} />}
      </section>
      {list?.next && (
        <div className="mt-4 flex justify-center">
          <button type="button" className="btn-secondary" disabled={loading !== null} onClick={() => load(list.next)}>
            {loading === 'more' && <Spinner size={16} label={t('app.loading')} />}
            {t('admin_users.load_more')}
          </button>
        </div>
      )}
    </div>
  );
}

function UserTable({ rows, dimmed }: { rows: AdminUser[]; dimmed: boolean }) {
  const t = useT();
  const lastSignIn = (u: AdminUser) => (u.attributes.last_signed_in_at ? formatDateTime(u.attributes.last_signed_in_at) : t('admin_users.never'));
  return (
    <table className={`w-full text-left text-sm transition-opacity ${dimmed ? 'opacity-60' : ''}`}>
      <caption className="sr-only">{t('admin_users.title')}</caption>
      <thead className="border-b border-border bg-surface-2/60 text-xs font-semibold tracking-wide whitespace-nowrap text-muted uppercase">
        <tr>
          <th scope="col" className="px-4 py-3 sm:px-6">
            {t('admin_users.column_user')}
          </th>
          <th scope="col" className="hidden px-4 py-3 sm:table-cell">
            {t('admin_users.column_role')}
          </th>
          <th scope="col" className="hidden px-4 py-3 text-right md:table-cell">
            {t('admin_users.column_storage')}
          </th>
          <th scope="col" className="hidden px-4 py-3 md:table-cell">
            {t('admin_users.column_last_sign_in')}
          </th>
          <th scope="col" className="hidden px-4 py-3 pr-6 lg:table-cell">
            {t('admin_users.column_created')}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-border">
        {rows.map((u) => (
          // The whole row opens the user, as its name's link does (the link stays the keyboard's and screen readers' way in).
          <tr
            key={u.id}
            className="cursor-pointer hover:bg-surface-2/50"
            onClick={(event) => {
              if ((event.target as HTMLElement).closest('a, button') || window.getSelection()?.toString()) return;
              event.currentTarget.querySelector<HTMLAnchorElement>('a[data-user-link]')?.click();
            }}
          >
            <td className="w-full max-w-0 px-4 py-3 sm:px-6">
              <div className="flex min-w-0 items-center gap-3">
                <Avatar size={36} name={u.attributes.name} email={u.attributes.email} color={u.attributes.color} avatar={u.attributes.avatar} />
                <div className="min-w-0 flex-1">
                  <a href={`/admin/user/${u.id}`} data-user-link className="block truncate font-semibold text-text hover:text-brand hover:underline">
                    {u.attributes.name}
                  </a>
                  <p className="truncate text-muted">{u.attributes.email}</p>
                  {/* On narrow screens the hidden columns' facts come under the name. */}
                  <p className="mt-0.5 truncate text-xs text-muted md:hidden">
                    {formatSize(u.attributes.storage.used)} · {t('admin_users.last_sign_in_short', { date: lastSignIn(u) })}
                  </p>
                </div>
                <span className="sm:hidden">
                  <RoleBadge role={u.attributes.role} />
                </span>
              </div>
            </td>
            <td className="hidden px-4 py-3 sm:table-cell">
              <RoleBadge role={u.attributes.role} />
            </td>
            <td className="hidden px-4 py-3 text-right whitespace-nowrap tabular-nums md:table-cell">{formatSize(u.attributes.storage.used)}</td>
            <td className="hidden px-4 py-3 whitespace-nowrap text-muted md:table-cell">{lastSignIn(u)}</td>
            <td className="hidden px-4 py-3 pr-6 whitespace-nowrap text-muted lg:table-cell">{formatDate(u.attributes.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
