import { useStore } from '@nanostores/react';
import { Link2 } from 'lucide-react';
import { useEffect } from 'react';
import { Spinner } from '../../components/Spinner.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { $dialog, openDialog } from '../../stores/dialogs.ts';
import { loadTree } from '../../stores/files.ts';
import { $tree } from '../../stores/tree.ts';
import { useT } from '../../stores/i18n.ts';
import { $mySharedItems, loadMySharedItems, shareOf } from '../../stores/sharing.ts';
import { Dialogs } from './dialogs/Dialogs.tsx';
import { ItemIcon } from './ItemIcon.tsx';
import { PhonePlaces } from './PhonePlaces.tsx';
import { formatDateTime } from '../../stores/dates.ts';

/** /platform/my-shared-items: everything the user shares, with its link's state. */
export default function SharedItemsScreen() {
  const t = useT();
  const items = useStore($mySharedItems);
  const dialog = useStore($dialog);
  useTitle(t('sharing.my_shared_items'));
  useEffect(() => {
    if (!dialog) void loadMySharedItems();
  }, [dialog]);
  useEffect(() => {
    if ($tree.get() === null) void loadTree();
  }, []);

  return (
    <>
    <section className="min-w-0">
      <PhonePlaces active="shared" />
      <h1 className="mb-4 text-2xl font-bold tracking-tight">{t('sharing.my_shared_items')}</h1>
      {!items ? (
        <div className="flex justify-center py-20">
          <Spinner label={t('app.loading')} />
        </div>
      ) : items.length === 0 ? (
        <div className="card flex flex-col items-center px-6 py-16 text-center">
          <span className="mb-4 flex size-14 items-center justify-center rounded-2xl bg-brand-soft text-brand">
            <Link2 className="size-7" aria-hidden />
          </span>
          <h2 className="text-lg font-bold">{t('sharing.none_title')}</h2>
          <p className="mt-1 max-w-sm text-[15px] text-muted">{t('sharing.none_text')}</p>
        </div>
      ) : (
        <ul className="card divide-y divide-border">
          {items.map((item) => {
            const share = shareOf(item)!;
            const a = share.attributes;
            return (
              <li key={item.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
                <ItemIcon item={item} />
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium">{item.attributes.name}</p>
                  <p className="text-xs text-muted">
                    {a.permission === 'editor' ? t('sharing.editor') : t('sharing.visitor')} · {a.protected ? t('sharing.protected') : t('sharing.open')}
                    {a.expires_at ? ` · ${t('sharing.expires', { date: formatDateTime(a.expires_at) })}` : ''}
                  </p>
                </div>
                <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${a.expired ? 'bg-danger/10 text-danger-text' : 'bg-success/10 text-success-text'}`}>{a.expired ? t('sharing.state_expired') : t('sharing.state_active')}</span>
                <button type="button" className="btn-secondary" onClick={() => openDialog({ kind: 'share', item })}>
                  {t('sharing.manage')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
      <Dialogs />
    </>
  );
}
