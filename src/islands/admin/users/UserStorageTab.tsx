import { useCallback, useEffect, useState } from 'react';
import { LoadFailedCard, LoadingCard } from '../../../components/LoadStates.tsx';
import { StorageUsage } from '../../../components/StorageUsage.tsx';
import { useT } from '../../../stores/i18n.ts';
import { RestrictionSwitches } from './RestrictionSwitches.tsx';
import { StorageLimitForm } from './StorageLimitForm.tsx';
import { loadUserStorage, type UserStorage } from './userStorage.ts';

type State = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; storage: UserStorage };

/**
 * /admin/user/:id/storage: the user's usage by kind (the same bar as their own storage page), their
 * storage limit, and the switches for what they may do (SPEC §6 restriction flags).
 */
export default function UserStorageTab({ userId, onChanged }: { userId: string; onChanged?: () => void }) {
  const t = useT();
  const [state, setState] = useState<State>({ status: 'loading' });
  const load = useCallback(() => {
    setState({ status: 'loading' });
    loadUserStorage(userId).then(
      (res) => setState({ status: 'ready', storage: res.data }),
      (error: unknown) => setState({ status: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
  }, [userId]);
  useEffect(load, [load]);

  const changed = (storage: UserStorage) => {
    setState({ status: 'ready', storage });
    onChanged?.();
  };

  if (state.status === 'loading') return <LoadingCard />;
  if (state.status === 'error') return <LoadFailedCard title={t('admin_users.storage_load_failed')} detail={state.message} retryLabel={t('admin_users.storage_retry')} onRetry={load} />;
  const { storage } = state;
  return (
    <div className="flex flex-col gap-6">
      <StorageUsage usage={storage.relationships.usage.data} overLimit={t('admin_users.storage_over_limit')} />
      <StorageLimitForm userId={userId} storage={storage} onSaved={changed} />
      <RestrictionSwitches userId={userId} storage={storage} onSaved={changed} />
    </div>
  );
}
