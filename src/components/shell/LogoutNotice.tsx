import { useStore } from '@nanostores/react';
import { $loggingOut } from '../../stores/ui.ts';
import { useT } from '../../stores/i18n.ts';
import { Spinner } from '../Spinner.tsx';

export function LogoutNotice() {
  const visible = useStore($loggingOut);
  const t = useT();
  if (!visible) return null;
  return (
    <div className="fixed inset-0 z-[60] flex items-center justify-center bg-backdrop">
      <div role="status" className="card flex items-center gap-4 px-6 py-5">
        <Spinner size={24} label="" />
        <div>
          <p className="font-bold">{t('logging_out')}</p>
          <p className="text-sm text-muted">{t('wait_a_second')}</p>
        </div>
      </div>
    </div>
  );
}
