import { useEffect, useState } from 'react';
import { CheckboxField } from '../../../components/CheckboxField.tsx';
import { SelectField } from '../../../components/SelectField.tsx';
import { useT } from '../../../stores/i18n.ts';
import type { OtherSettings } from './api.ts';
import { NumberField, Section, SettingsForm, TextAreaField } from './SettingsForm.tsx';
import { useSettingsGroup } from './useSettingsGroup.ts';

const GB = 1024 ** 3;
const MB = 1024 ** 2;

/** Fields typed in a unit and stored in bytes (or days): the unit's size in the stored number. */
const SIZED = { default_storage_limit_bytes: GB, upload_limit_bytes: MB, chunk_size_bytes: MB, trash_retention_days: 1, max_team_members: 1, team_invitation_expiry_days: 1, maintenance_retry_after_seconds: 60 } as const;
type Sized = keyof typeof SIZED;

/** What was typed, in stored units; what is not a number goes as null, for the server to refuse. */
function toStored(text: string, unit: number): number | null {
  const n = Number(text.replace(',', '.'));
  return text.trim() === '' || !Number.isFinite(n) ? null : Math.round(n * unit);
}
const toText = (stored: number, unit: number) => String(Math.round((stored / unit) * 1000) / 1000);
const blacklistText = (entries: string[]) => entries.join('\n');

/** The "others" tab: storage and upload limits, blocked types, trash, sign-up, language, cookie notice, maintenance mode. */
export default function OthersTab() {
  const t = useT();
  const form = useSettingsGroup<OtherSettings>('others');
  const v = form.values;
  const meta = form.saved?.meta;
  const [texts, setTexts] = useState<Record<Sized, string> | null>(null);
  const [blacklist, setBlacklist] = useState('');

  // What the server saved (normalised: whole bytes, blocked types in lower case) is shown as saved.
  useEffect(() => {
    if (!form.saved) return;
    const a = form.saved.data.attributes;
    setTexts(Object.fromEntries(Object.entries(SIZED).map(([key, unit]) => [key, toText(a[key as Sized], unit)])) as Record<Sized, string>);
    setBlacklist(blacklistText(a.mimetypes_blacklist));
  }, [form.saved]);

  const setSized = (key: Sized, text: string) => {
    setTexts((x) => (x ? { ...x, [key]: text } : x));
    form.set(key, toStored(text, SIZED[key]) as number);
  };
  const sized = (key: Sized, label: string, unit: string, hint: string, extra: { min?: number; max?: number; step?: number | 'any' } = {}) => (
    <NumberField label={label} unit={unit} hint={hint} value={texts?.[key] ?? ''} onChange={(text) => setSized(key, text)} error={form.error(key)} min={0} step="any" {...extra} />
  );

  return (
    <SettingsForm label={t('admin_settings.tab_others')} loaded={!!v && !!texts} message={form.message} busy={form.busy} dirty={form.dirty} onSave={() => void form.save()}>
      {v && meta && texts && (
        <>
          <Section title={t('admin_settings.storage_uploads')} description={t('admin_settings.storage_uploads_text')}>
            <div className="grid gap-x-5 sm:grid-cols-2">
              {sized('default_storage_limit_bytes', t('admin_settings.default_storage'), 'GB', t('admin_settings.default_storage_hint'))}
              {sized('upload_limit_bytes', t('admin_settings.upload_limit'), 'MB', t('admin_settings.upload_limit_hint'))}
              {sized('chunk_size_bytes', t('admin_settings.chunk_size'), 'MB', t('admin_settings.chunk_size_hint', { min: meta.chunk_min_bytes / MB, max: meta.chunk_max_bytes / MB }), { min: meta.chunk_min_bytes / MB, max: meta.chunk_max_bytes / MB, step: 1 })}
              {sized('trash_retention_days', t('admin_settings.trash_retention'), t('admin_settings.days'), t('admin_settings.trash_retention_hint'), { step: 1 })}
            </div>
            <TextAreaField
              label={t('admin_settings.blacklist')}
              hint={t('admin_settings.blacklist_hint')}
              value={blacklist}
              rows={4}
              spellCheck={false}
              className="input min-h-24 resize-y font-mono text-sm"
              onChange={(e) => {
                setBlacklist(e.target.value);
                form.set('mimetypes_blacklist', e.target.value.split(/[\s,]+/).filter(Boolean));
              }}
              error={form.error('mimetypes_blacklist')}
            />
            <CheckboxField
              label={t('s3_storage.presigned_downloads')}
              hint={t(meta.storage_driver === 's3' ? 's3_storage.presigned_downloads_hint' : 's3_storage.presigned_downloads_local')}
              checked={v.s3_presigned_downloads}
              onChange={(c) => form.set('s3_presigned_downloads', c)}
              error={form.error('s3_presigned_downloads')}
            />
          </Section>

          <Section title={t('billing_plans.subscriptions_section')} description={t('billing_plans.subscriptions_section_text')}>
            <div className="sm:max-w-xs">
              <SelectField label={t('setup.subscription_type')} value={v.subscription_type} onChange={(type) => form.set('subscription_type', type as typeof v.subscription_type)} options={(['none', 'fixed', 'metered'] as const).map((type) => ({ value: type, label: t(`setup.subscription_${type}`) }))} error={form.error('subscription_type')} />
            </div>
          </Section>

          <Section title={t('team_settings.section')} description={t('team_settings.section_text')}>
            <div className="grid gap-x-5 sm:grid-cols-2">
              {sized('max_team_members', t('team_settings.max_members'), t('team_settings.people'), t('team_settings.max_members_hint'), { min: 1, step: 1 })}
              {sized('team_invitation_expiry_days', t('team_settings.invitation_expiry'), t('admin_settings.days'), t('team_settings.invitation_expiry_hint'), { min: 1, max: 365, step: 1 })}
            </div>
          </Section>

          <Section title={t('admin_settings.accounts')} description={t('admin_settings.accounts_text')}>
            <CheckboxField label={t('admin_settings.registration_open')} hint={t('admin_settings.registration_open_hint')} checked={v.registration_open} onChange={(c) => form.set('registration_open', c)} error={form.error('registration_open')} />
            <CheckboxField label={t('admin_settings.email_verification')} hint={t('admin_settings.email_verification_hint')} checked={v.email_verification_required} onChange={(c) => form.set('email_verification_required', c)} error={form.error('email_verification_required')} />
          </Section>

          <Section title={t('admin_settings.site')} description={t('admin_settings.site_text')}>
            <div className="sm:max-w-xs">
              <SelectField label={t('admin_settings.default_language')} hint={t('admin_settings.default_language_hint')} value={v.locale} onChange={(locale) => form.set('locale', locale)} options={meta.locales.map((l) => ({ value: l.code, label: l.name }))} error={form.error('locale')} />
            </div>
            <CheckboxField label={t('admin_settings.cookie_notice')} hint={t('admin_settings.cookie_notice_hint')} checked={v.cookie_notice} onChange={(c) => form.set('cookie_notice', c)} error={form.error('cookie_notice')} />
          </Section>

          <Section title={t('admin_settings.maintenance')} description={t('admin_settings.maintenance_text')}>
            <CheckboxField label={t('admin_settings.maintenance_mode')} hint={t('admin_settings.maintenance_mode_hint')} checked={v.maintenance_mode} onChange={(c) => form.set('maintenance_mode', c)} error={form.error('maintenance_mode')} />
            <div className="sm:max-w-xs">{sized('maintenance_retry_after_seconds', t('admin_settings.maintenance_retry'), t('admin_settings.minutes'), t('admin_settings.maintenance_retry_hint'), { min: 1, step: 1 })}</div>
          </Section>
        </>
      )}
    </SettingsForm>
  );
}
