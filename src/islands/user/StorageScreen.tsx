import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { LoadFailedCard, LoadingCard } from '../../components/LoadStates.tsx';
import { StorageUsage } from '../../components/StorageUsage.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { useT } from '../../stores/i18n.ts';
import { $storageUsage, loadStorageUsage } from '../../stores/storage.ts';
import { SettingsNav } from './SettingsNav.tsx';

/** /user/settings/storage (SPEC §3 storage usage, §9 bar colours): used against capacity, by kind. */
export default function StorageScreen() {
  const t = useT();
  useTitle(t('storage.title'));
  const state = useStore($storageUsage);
  const load = () => void loadStorageUsage({ spinner: true });
  useEffect(load, []);

  return (
    <div>
      <PageHeader title={t('storage.title')} subtitle={t('storage.subtitle')} />
      <SettingsNav />
      {state.status === 'loading' && <LoadingCard />}
      {state.status === 'error' && <LoadFailedCard title={t('storage.load_failed')} retryLabel={t('storage.retry')} onRetry={load} />}
      {state.status === 'ready' && <StorageUsage usage={state.usage} />}
    </div>
  );
}
