import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { CheckboxField } from '../../../components/CheckboxField.tsx';
import { FormField } from '../../../components/FormField.tsx';
import { SelectField } from '../../../components/SelectField.tsx';
import { useT } from '../../../stores/i18n.ts';
import type { HomepageSettings } from './api.ts';
import { Section, SettingsForm, TextAreaField } from './SettingsForm.tsx';
import { useSettingsGroup } from './useSettingsGroup.ts';

type Feature = HomepageSettings['data']['attributes']['home_features'][number];
const BUILT_IN_CARDS = ['upload', 'share', 'team', 'shield'] as const;

/** The "index" tab: the homepage's headline, which sections show, and its feature cards. */
export default function HomepageTab() {
  const t = useT();
  const form = useSettingsGroup<HomepageSettings>('homepage');
  const v = form.values;
  const meta = form.saved?.meta;
  const features = v?.home_features ?? [];
  const setFeatures = (next: Feature[]) => form.set('home_features', next);
  const update = (i: number, patch: Partial<Feature>) => setFeatures(features.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  const move = (i: number, by: number) => {
    const next = [...features];
    const [card] = next.splice(i, 1);
    next.splice(i + by, 0, card!);
    setFeatures(next);
  };

  return (
    <SettingsForm label={t('admin_settings.tab_index')} loaded={!!v} message={form.message} busy={form.busy} dirty={form.dirty} onSave={() => void form.save()}>
      {v && meta && (
        <>
          <Section title={t('admin_settings.headline')} description={t('admin_settings.headline_text')}>
            <FormField label={t('admin_settings.home_title')} value={v.home_title} placeholder={t('home.title')} onChange={(e) => form.set('home_title', e.target.value)} error={form.error('home_title')} maxLength={120} />
            <TextAreaField label={t('admin_settings.home_subtitle')} value={v.home_subtitle} placeholder={t('home.subtitle')} onChange={(e) => form.set('home_subtitle', e.target.value)} error={form.error('home_subtitle')} maxLength={300} rows={3} />
          </Section>

          <Section title={t('admin_settings.sections')} description={t('admin_settings.sections_text')}>
            <CheckboxField label={t('admin_settings.show_preview')} hint={t('admin_settings.show_preview_hint')} checked={v.home_show_preview} onChange={(c) => form.set('home_show_preview', c)} error={form.error('home_show_preview')} />
            <CheckboxField label={t('admin_settings.show_features')} hint={t('admin_settings.show_features_hint')} checked={v.home_show_features} onChange={(c) => form.set('home_show_features', c)} error={form.error('home_show_features')} />
            <CheckboxField label={t('admin_settings.show_cta')} hint={t('admin_settings.show_cta_hint')} checked={v.home_show_cta} onChange={(c) => form.set('home_show_cta', c)} error={form.error('home_show_cta')} />
            <CheckboxField label={t('billing_plans.show_pricing')} hint={t('billing_plans.show_pricing_hint')} checked={v.home_show_pricing} onChange={(c) => form.set('home_show_pricing', c)} error={form.error('home_show_pricing')} />
          </Section>

          <Section title={t('admin_settings.features')} description={t('admin_settings.features_text', { max: meta.max_features })}>
            {features.length === 0 && (
              <div className="rounded-control border border-dashed border-border px-4 py-6 text-center">
                <p className="text-sm text-muted">{t('admin_settings.features_builtin')}</p>
                <button
                  type="button"
                  className="btn-secondary mt-3 px-3 py-1.5 text-sm"
                  onClick={() => setFeatures(BUILT_IN_CARDS.map((icon) => ({ icon, title: t(`home.feature_${icon}_title`), text: t(`home.feature_${icon}_text`) })))}
                >
                  {t('admin_settings.features_customise')}
                </button>
              </div>
            )}
            <ol className="flex flex-col gap-4">
              {features.map((card, i) => (
                <li key={i} className="rounded-control border border-border p-4" aria-label={t('admin_settings.card_n', { n: i + 1 })}>
                  <div className="mb-3 flex items-center justify-between gap-2">
                    <p className="text-sm font-semibold text-muted">{t('admin_settings.card_n', { n: i + 1 })}</p>
                    <div className="flex gap-1">
                      <IconButton label={t('admin_settings.card_up')} disabled={i === 0} onClick={() => move(i, -1)}>
                        <ArrowUp size={16} aria-hidden />
                      </IconButton>
                      <IconButton label={t('admin_settings.card_down')} disabled={i === features.length - 1} onClick={() => move(i, 1)}>
                        <ArrowDown size={16} aria-hidden />
                      </IconButton>
                      <IconButton label={t('admin_settings.card_remove')} onClick={() => setFeatures(features.filter((_, j) => j !== i))}>
                        <Trash2 size={16} aria-hidden />
                      </IconButton>
                    </div>
                  </div>
                  <div className="grid gap-x-4 sm:grid-cols-[10rem_1fr]">
                    <SelectField label={t('admin_settings.card_icon')} value={card.icon} onChange={(icon) => update(i, { icon })} options={meta.icons.map((icon) => ({ value: icon, label: t(`admin_settings.icon_${icon}`) }))} error={form.error(`home_features.${i}.icon`)} />
                    <FormField label={t('admin_settings.card_title')} value={card.title} onChange={(e) => update(i, { title: e.target.value })} error={form.error(`home_features.${i}.title`)} maxLength={80} />
                  </div>
                  <TextAreaField label={t('admin_settings.card_text')} value={card.text} onChange={(e) => update(i, { text: e.target.value })} error={form.error(`home_features.${i}.text`)} maxLength={300} rows={2} />
                </li>
              ))}
            </ol>
            {form.errors.home_features && <p className="field-error">{form.errors.home_features[0]}</p>}
            {features.length > 0 && (
              <div className="mt-4 flex flex-wrap gap-2">
                <button type="button" className="btn-secondary px-3 py-1.5 text-sm" disabled={features.length >= meta.max_features} onClick={() => setFeatures([...features, { icon: 'folder', title: '', text: '' }])}>
                  <Plus size={16} aria-hidden />
                  {t('admin_settings.card_add')}
                </button>
                <button type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={() => setFeatures([])}>
                  {t('admin_settings.features_reset')}
                </button>
              </div>
            )}
          </Section>
        </>
      )}
    </SettingsForm>
  );
}

function IconButton({ label, disabled, onClick, children }: { label: string; disabled?: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className="grid size-8 place-items-center rounded-control text-muted hover:bg-surface-2 hover:text-text disabled:opacity-40 disabled:hover:bg-transparent" aria-label={label} title={label} disabled={disabled} onClick={onClick}>
      {children}
    </button>
  );
}
