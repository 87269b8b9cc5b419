import { useId, useState } from 'react';
import { useT } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';
import { saveUserStorage, type Restrictions, type UserStorage } from './userStorage.ts';

/** SPEC §6's four flags, in the order the spec names them, with their message keys. */
const FLAGS: { key: keyof Restrictions; label: string }[] = [
  { key: 'canUpload', label: 'admin_users.storage_can_upload' },
  { key: 'canDownload', label: 'admin_users.storage_can_download' },
  { key: 'canCreateFolder', label: 'admin_users.storage_can_create_folder' },
  { key: 'canCreateTeamFolder', label: 'admin_users.storage_can_create_team_folder' },
];

/** A switch per restriction flag; each change is saved at once (and audited by the server). */
export function RestrictionSwitches({ userId, storage, onSaved }: { userId: string; storage: UserStorage; onSaved: (storage: UserStorage) => void }) {
  const t = useT();
  const id = useId();
  const [pending, setPending] = useState<keyof Restrictions | null>(null);
  const flags = storage.attributes.restrictions;

  const toggle = async (key: keyof Restrictions, label: string) => {
    const value = !flags[key];
    setPending(key);
    try {
      const res = await saveUserStorage(userId, { restrictions: { [key]: value } });
      onSaved(res.data);
      toast('success', t(value ? 'admin_users.storage_permission_allowed' : 'admin_users.storage_permission_blocked', { permission: t(label) }));
    } catch (err) {
      toast('danger', err instanceof Error ? err.message : String(err));
    } finally {
      setPending(null);
    }
  };

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <div className="border-b border-border px-6 py-4">
        <h2 id={`${id}-title`} className="text-lg font-bold">
          {t('admin_users.storage_permissions_title')}
        </h2>
        <p className="mt-1 text-sm text-muted">{t('admin_users.storage_permissions_text')}</p>
      </div>
      <ul className="divide-y divide-border">
        {FLAGS.map(({ key, label }) => {
          const on = flags[key];
          return (
            <li key={key} className="flex items-center gap-4 px-6 py-4">
              <div className="min-w-0 flex-1">
                <p id={`${id}-${key}`} className="font-semibold">
                  {t(label)}
                </p>
                <p id={`${id}-${key}-text`} className="text-sm text-muted">
                  {t(`${label}_text`)}
                </p>
              </div>
              <button
                type="button"
                role="switch"
                aria-checked={on}
                aria-labelledby={`${id}-${key}`}
                aria-describedby={`${id}-${key}-text`}
                disabled={pending !== null}
                onClick={() => void toggle(key, label)}
                className={`relative inline-flex h-7 w-12 shrink-0 cursor-pointer items-center rounded-full transition-colors disabled:cursor-wait ${on ? 'bg-brand' : 'bg-muted/40'}`}
              >
                <span className={`inline-block size-5 rounded-full bg-white shadow-sm transition-transform ${on ? 'translate-x-6' : 'translate-x-1'}`} aria-hidden />
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
