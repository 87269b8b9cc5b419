import { useStore } from '@nanostores/react';
import { RotateCw } from 'lucide-react';
import { useEffect } from 'react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Spinner } from '../../components/Spinner.tsx';
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
      {state.status === 'loading' && (
        <div className="card flex justify-center py-16">
          <Spinner label={t('app.loading')} />
        </div>
      )}
      {state.status === 'error' && (
        <div className="card flex flex-col items-start gap-4 p-6">
          <p role="alert" className="notice-danger w-full">
            {t('storage.load_failed')}
          </p>
          <button type="button" className="btn-secondary" onClick={load}>
            <RotateCw className="size-4" aria-hidden />
            {t('storage.retry')}
          </button>
        </div>
      )}
      {state.status === 'ready' && <StorageUsage usage={state.usage} />}
    </div>
  );
}
