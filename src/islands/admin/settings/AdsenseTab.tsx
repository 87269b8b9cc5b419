import { useEffect, useState, type FormEvent } from 'react';
import { FormField } from '../../../components/FormField.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useT } from '../../../stores/i18n.ts';
import { SwitchField } from './SwitchField.tsx';
import { useSettingsTab } from './useSettingsTab.ts';

interface AdsenseSettings {
  enabled: boolean;
  publisher_id: string;
  header_slot: string;
  footer_slot: string;
}

/** The settings screen's adsense tab: the publisher id and the public pages' header and footer slots. */
export default function AdsenseTab() {
  const t = useT();
  const tab = useSettingsTab<AdsenseSettings>('/api/admin/settings/adsense', 'admin_settings.adsense_saved');
  const [draft, setDraft] = useState<AdsenseSettings | null>(null);
  useEffect(() => {
    if (tab.data) setDraft(tab.data);
  }, [tab.data]);

  if (tab.loadError) return <p className="notice-danger">{tab.loadError}</p>;
  if (!draft) {
    return (
      <div className="flex justify-center py-16">
        <Spinner label={t('app.loading')} />
      </div>
    );
  }
  const set = (change: Partial<AdsenseSettings>) => setDraft({ ...draft, ...change });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void tab.save({ ...draft });
  };

  return (
    <form className="flex flex-col gap-6" onSubmit={submit} noValidate>
      <section className="card p-6" aria-labelledby="adsense-title">
        <h2 id="adsense-title" className="text-lg font-bold">
          {t('admin_settings.adsense_title')}
        </h2>
        <p className="mt-1 text-sm text-muted">{t('admin_settings.adsense_text')}</p>
        <div className="mt-5 border-t border-border pt-5">
          <SwitchField label={t('admin_settings.adsense_enabled')} hint={t('admin_settings.adsense_consent_hint')} checked={draft.enabled} onChange={(enabled) => set({ enabled })} />
          <div className="mt-4">
            <FormField
              label={t('admin_settings.adsense_publisher_id')}
              value={draft.publisher_id}
              onChange={(e) => set({ publisher_id: e.target.value })}
              error={tab.error('publisher_id')}
              placeholder="ca-pub-0000000000000000"
              maxLength={40}
              spellCheck={false}
              autoComplete="off"
            />
          </div>
          <div className="grid gap-x-4 sm:grid-cols-2">
            <FormField
              label={t('admin_settings.adsense_header_slot')}
              value={draft.header_slot}
              onChange={(e) => set({ header_slot: e.target.value })}
              error={tab.error('header_slot')}
              placeholder="1234567890"
              inputMode="numeric"
              maxLength={20}
              autoComplete="off"
            />
            <FormField
              label={t('admin_settings.adsense_footer_slot')}
              value={draft.footer_slot}
              onChange={(e) => set({ footer_slot: e.target.value })}
              error={tab.error('footer_slot')}
              placeholder="1234567890"
              inputMode="numeric"
              maxLength={20}
              autoComplete="off"
            />
          </div>
          <p className="-mt-2 text-sm text-muted">{t('admin_settings.adsense_slots_hint')}</p>
        </div>
      </section>

      <div className="flex justify-end">
        <button type="submit" className="btn-primary" disabled={tab.busy}>
          {tab.busy && <span className="size-4 animate-spin rounded-full border-2 border-on-brand/40 border-t-on-brand" aria-hidden />}
          {t('admin_settings.adsense_save')}
        </button>
      </div>
    </form>
  );
}
