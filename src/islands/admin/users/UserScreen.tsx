import { ArrowLeft, UserX } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { Avatar } from '../../../components/Avatar.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useTitle } from '../../../components/useTitle.ts';
import { ApiError } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import type { AdminScreenProps } from '../screens.ts';
import { getUser, type AdminUserDetail } from './client.ts';
import { RoleBadge } from './RoleBadge.tsx';
import UserDeleteTab from './UserDeleteTab.tsx';
import UserDetailsTab from './UserDetailsTab.tsx';
import UserPasswordTab from './UserPasswordTab.tsx';
import UserStorageTab from './UserStorageTab.tsx';
import UserSubscriptionTab from './UserSubscriptionTab.tsx';

const TABS = ['details', 'storage', 'subscription', 'password', 'delete'] as const;
type Tab = (typeof TABS)[number];

type State = { status: 'loading' } | { status: 'missing' } | { status: 'error'; message: string } | { status: 'ready'; user: AdminUserDetail };

/** /admin/user/:id/:tab?: who the account is, and a tab for each thing an admin does to it. */
export default function UserScreen({ params }: AdminScreenProps) {
  const t = useT();
  const id = params.id ?? '';
  const tab = (params.tab || 'details') as Tab;
  const [state, setState] = useState<State>({ status: 'loading' });
  const user = state.status === 'ready' ? state.user : null;
  useTitle(user ? user.data.attributes.name : t('admin_users.title'));

  const reload = useCallback(() => {
    getUser(id).then(
      (loaded) => setState({ status: 'ready', user: loaded }),
      (error: unknown) => setState(error instanceof ApiError && error.status === 404 ? { status: 'missing' } : { status: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
  }, [id]);
  useEffect(() => {
    setState({ status: 'loading' });
    reload();
  }, [reload]);

  return (
    <div>
      <a href="/admin/users" className="link mb-3 inline-flex items-center gap-1.5 text-sm">
        <ArrowLeft className="size-4" aria-hidden />
        {t('admin_users.back_to_list')}
      </a>
      {state.status === 'loading' && (
        <div className="card flex justify-center py-16">
          <Spinner label={t('app.loading')} />
        </div>
      )}
      {state.status === 'missing' && (
        <div className="card flex flex-col items-center gap-3 px-6 py-14 text-center">
          <span className="flex size-12 items-center justify-center rounded-2xl bg-surface-2 text-muted">
            <UserX className="size-6" aria-hidden />
          </span>
          <h1 className="text-lg font-bold">{t('admin_users.missing')}</h1>
          <p className="text-sm text-muted">{t('admin_users.missing_text')}</p>
        </div>
      )}
      {state.status === 'error' && (
        <p role="alert" className="notice-danger">
          {state.message}
        </p>
      )}
      {user && (
        <>
          <header className="mb-5 flex min-w-0 items-center gap-4">
            <Avatar size={56} name={user.data.attributes.name} email={user.data.attributes.email} color={user.data.attributes.color} avatar={user.data.attributes.avatar} />
            <div className="min-w-0 flex-1">
              <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
                <h1 className="truncate text-2xl font-bold tracking-tight">{user.data.attributes.name}</h1>
                <RoleBadge role={user.data.attributes.role} />
              </div>
              <p className="truncate text-[15px] text-muted">{user.data.attributes.email}</p>
            </div>
          </header>
          <nav aria-label={t('admin_users.user_sections')} className="mb-6 flex w-fit max-w-full gap-1 overflow-x-auto rounded-control bg-surface-2 p-1">
            {TABS.map((name) => (
              <a
                key={name}
                href={name === 'details' ? `/admin/user/${id}` : `/admin/user/${id}/${name}`}
                aria-current={tab === name ? 'page' : undefined}
                className={`shrink-0 rounded-lg px-3 py-1.5 text-sm font-semibold whitespace-nowrap transition-colors ${
                  tab === name ? 'bg-surface text-text shadow-sm' : 'text-muted hover:text-text'
                } ${name === 'delete' && tab !== name ? 'hover:text-danger' : ''}`}
              >
                {t(`admin_users.tab_${name}`)}
              </a>
            ))}
          </nav>
          {tab === 'details' && <UserDetailsTab user={user} onChanged={(changed) => setState({ status: 'ready', user: changed })} />}
          {tab === 'storage' && <UserStorageTab userId={id} onChanged={reload} />}
          {tab === 'subscription' && <UserSubscriptionTab userId={id} />}
          {tab === 'password' && <UserPasswordTab user={user} />}
          {tab === 'delete' && <UserDeleteTab userId={id} />}
          {!TABS.includes(tab) && <p className="notice-danger">{t('admin_users.unknown_tab')}</p>}
        </>
      )}
    </div>
  );
}
