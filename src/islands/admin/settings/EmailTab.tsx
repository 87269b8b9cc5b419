import { Send } from 'lucide-react';
import { useState } from 'react';
import { FormField } from '../../../components/FormField.tsx';
import { SelectField } from '../../../components/SelectField.tsx';
import { ApiError } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';
import { sendTestMail, type EmailSettings } from './api.ts';
import { Section, SettingsForm } from './SettingsForm.tsx';
import { useSettingsGroup } from './useSettingsGroup.ts';

type Attributes = EmailSettings['data']['attributes'];

/** The "environment" tab: the mail driver, its server and sign-in, the sender, and a test mail. */
export default function EmailTab() {
  const t = useT();
  const form = useSettingsGroup<EmailSettings>('email');
  // Write-only: the saved password is never sent to the browser; typing one replaces it.
  const [password, setPassword] = useState('');
  const [testTo, setTestTo] = useState('');
  const [testError, setTestError] = useState('');
  const [testing, setTesting] = useState(false);
  const v = form.values;
  const meta = form.saved?.meta;
  const smtp = v?.driver !== 'log';
  const withPassword = () => ({ ...form.changes(), ...(password ? { password } : {}) });

  const save = async () => {
    if (await form.save(password ? { password } : {})) setPassword('');
  };

  const test = async () => {
    setTesting(true);
    setTestError('');
    try {
      const res = await sendTestMail(testTo, withPassword());
      toast('success', t('admin_settings.test_sent', { email: res.data.sent_to }));
    } catch (error) {
      // The address's own refusal shows under it; a refused mail field shows under that field.
      const fieldErrors = error instanceof ApiError ? Object.keys(error.errors).filter((key) => key !== 'test_email') : [];
      if (fieldErrors.length) form.refused(error, [...Object.keys(v ?? {}), 'password']);
      setTestError(error instanceof ApiError ? (error.errors.test_email?.[0] ?? (fieldErrors.length ? t('admin_settings.test_fix_fields') : error.message)) : String(error));
    } finally {
      setTesting(false);
    }
  };

  return (
    <SettingsForm label={t('admin_settings.tab_environment')} loaded={!!v} message={form.message} busy={form.busy} dirty={form.dirty || password !== ''} onSave={() => void save()}>
      {v && meta && (
        <>
          {v.source === 'environment' && <p className="notice border-info/30 bg-info/10 text-text">{t('admin_settings.mail_from_environment')}</p>}
          <Section title={t('admin_settings.mail_driver_section')} description={t('admin_settings.mail_driver_text')}>
            <SelectField
              label={t('admin_settings.mail_driver')}
              hint={smtp ? t('admin_settings.mail_driver_smtp_hint') : t('admin_settings.mail_driver_log_hint')}
              value={v.driver}
              onChange={(driver) => form.set('driver', driver as Attributes['driver'])}
              options={meta.drivers.map((d) => ({ value: d, label: t(`admin_settings.driver_${d}`) }))}
              error={form.error('driver')}
            />
            {smtp && (
              <>
                <div className="grid gap-x-5 sm:grid-cols-[1fr_8rem]">
                  <FormField label={t('admin_settings.mail_host')} value={v.host} onChange={(e) => form.set('host', e.target.value)} error={form.error('host')} maxLength={255} autoComplete="off" spellCheck={false} />
                  <FormField label={t('admin_settings.mail_port')} type="number" inputMode="numeric" min={1} max={65535} value={Number.isFinite(v.port) ? String(v.port) : ''} onChange={(e) => form.set('port', (e.target.value === '' ? null : Number(e.target.value)) as number)} error={form.error('port')} />
                </div>
                <SelectField label={t('admin_settings.mail_encryption')} value={v.encryption} onChange={(enc) => form.set('encryption', enc as Attributes['encryption'])} options={meta.encryptions.map((e) => ({ value: e, label: t(`admin_settings.encryption_${e}`) }))} error={form.error('encryption')} />
                <div className="grid gap-x-5 sm:grid-cols-2">
                  <FormField label={t('admin_settings.mail_username')} value={v.username} onChange={(e) => form.set('username', e.target.value)} error={form.error('username')} maxLength={255} autoComplete="off" spellCheck={false} />
                  <div>
                    <FormField
                      label={t('admin_settings.mail_password')}
                      type="password"
                      value={password}
                      placeholder={v.password_set ? '••••••••' : ''}
                      onChange={(e) => setPassword(e.target.value)}
                      error={form.error('password')}
                      maxLength={255}
                      autoComplete="new-password"
                      aria-describedby="mail-password-hint"
                    />
                    <p id="mail-password-hint" className="-mt-2 mb-4 text-sm text-muted">
                      {v.password_set ? t('admin_settings.mail_password_kept') : t('admin_settings.mail_password_none')}
                    </p>
                  </div>
                </div>
              </>
            )}
          </Section>

          <Section title={t('admin_settings.sender')} description={t('admin_settings.sender_text')}>
            <div className="grid gap-x-5 sm:grid-cols-2">
              <FormField label={t('admin_settings.from_address')} type="email" value={v.from_address} onChange={(e) => form.set('from_address', e.target.value)} error={form.error('from_address')} maxLength={255} autoComplete="off" />
              <FormField label={t('admin_settings.from_name')} value={v.from_name} onChange={(e) => form.set('from_name', e.target.value)} error={form.error('from_name')} maxLength={120} />
            </div>
          </Section>

          <Section title={t('admin_settings.test_mail')} description={t('admin_settings.test_mail_text')}>
            <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
              <div className="flex-1 [&>div]:mb-0">
                <FormField label={t('admin_settings.test_to')} type="email" value={testTo} onChange={(e) => setTestTo(e.target.value)} error={testError || undefined} maxLength={255} autoComplete="email" />
              </div>
              <button type="button" className="btn-secondary sm:mt-7" disabled={testing || !testTo.trim()} onClick={() => void test()}>
                {testing ? <span className="size-4 animate-spin rounded-full border-2 border-border border-t-brand" aria-hidden /> : <Send size={16} aria-hidden />}
                {t('admin_settings.test_send')}
              </button>
            </div>
          </Section>
        </>
      )}
    </SettingsForm>
  );
}
