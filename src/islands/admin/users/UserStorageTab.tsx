import { RotateCw } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { Spinner } from '../../../components/Spinner.tsx';
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

  if (state.status === 'loading') {
    return (
      <div className="card flex justify-center py-16">
        <Spinner label={t('app.loading')} />
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <div className="card flex flex-col items-start gap-4 p-6">
        <div role="alert" className="notice-danger w-full">
          <p className="font-semibold">{t('admin_users.storage_load_failed')}</p>
          <p>{state.message}</p>
        </div>
        <button type="button" className="btn-secondary" onClick={load}>
          <RotateCw className="size-4" aria-hidden />
          {t('admin_users.storage_retry')}
        </button>
      </div>
    );
  }
  const { storage } = state;
  return (
    <div className="flex flex-col gap-6">
      <StorageUsage usage={storage.relationships.usage.data} overLimit={t('admin_users.storage_over_limit')} />
      <StorageLimitForm userId={userId} storage={storage} onSaved={changed} />
      <RestrictionSwitches userId={userId} storage={storage} onSaved={changed} />
    </div>
  );
}
