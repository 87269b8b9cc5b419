import { useEffect, useState, type ReactNode } from 'react';
import { CircleAlert, CircleCheck, CircleX } from 'lucide-react';
import { FormField } from '../../components/FormField.tsx';
import { PasswordStrength } from '../../components/PasswordStrength.tsx';
import { useT } from '../../stores/i18n.ts';
import { call, uploadLogo, type Check, type SetupState } from './api.ts';
import { Checkbox, Select, StepForm, str, useStepForm } from './form.tsx';

export interface StepProps {
  state: SetupState;
  onSaved: (state: SetupState) => void;
  onBack?: (() => void) | undefined;
}


/** A hint's `command` spans as code: the server writes them in backticks. */
function withCode(text: string): ReactNode[] {
  return text.split(/`([^`]+)`/).map((part, i) => (i % 2 === 1 ? <code key={i} className="rounded bg-surface-2 px-1 py-0.5 font-mono text-[13px]">{part}</code> : part));
}

export function StatusCheckStep({ onSaved }: StepProps) {
  const t = useT();
  const form = useStepForm({});
  const [checks, setChecks] = useState<Check[] | null>(null);
  const load = () => void form.run(async () => setChecks((await call<{ data: Check[] }>('GET', 'status-check')).data));
  useEffect(load, []);
  const submit = () =>
    void form.run(async () => {
      const res = await call<{ data: Check[] }>('POST', 'status-check');
      setChecks(res.data);
      onSaved((await call<{ data: SetupState }>('GET', 'state')).data);
    });
  return (
    <StepForm onSubmit={submit} busy={form.busy} message={form.message}>
      {!checks ? (
        <p className="text-muted">{t('setup.checking')}</p>
      ) : (
        <ul className="divide-y divide-border rounded-control border border-border">
          {checks.map((c) => (
            <li key={c.id} className="flex gap-3 px-4 py-3" data-check={c.id} data-ok={c.ok}>
              {c.ok ? <CircleCheck className="mt-0.5 shrink-0 text-success" size={20} aria-label={t('setup.pass')} /> : c.required ? <CircleX className="mt-0.5 shrink-0 text-danger" size={20} aria-label={t('setup.fail')} /> : <CircleAlert className="mt-0.5 shrink-0 text-warning" size={20} aria-label={t('setup.optional_missing')} />}
              <div className="min-w-0 flex-1">
                <p className="flex flex-wrap items-baseline justify-between gap-x-3 font-medium">
                  <span>{c.label}</span>
                  <span className="break-all text-sm font-normal text-muted">{c.detail}</span>
                </p>
                {!c.ok && <p className="mt-0.5 text-sm text-muted">{withCode(c.fix)}</p>}
              </div>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="link mt-3 text-sm" onClick={load}>
        {t('setup.check_again')}
      </button>
    </StepForm>
  );
}

const LICENCE = `Permission is granted to install and run this software on servers you control, for yourself or your organisation, and to change it for your own use.

The software is provided "as is", without warranty of any kind. In no event shall the authors be liable for any claim, damages or other liability arising from the use of the software.

You are responsible for the files your users store and for following the laws that apply to you.`;

export function PurchaseCodeStep({ state, onSaved, onBack }: StepProps) {
  const t = useT();
  const saved = state.values['purchase-code'] ?? {};
  const form = useStepForm({ accept_license: saved.accept_license === true, purchase_code: str(saved.purchase_code) });
  const submit = () => void form.save('purchase-code', form.values).then((s) => s && onSaved(s));
  return (
    <StepForm onSubmit={submit} onBack={onBack} busy={form.busy} message={form.message}>
      <div className="mb-5 max-h-56 overflow-y-auto whitespace-pre-line rounded-control border border-border bg-surface-2 p-4 text-sm text-muted" role="region" tabIndex={0} aria-label={t('setup.licence_text')}>
        {LICENCE}
      </div>
      <Checkbox label={t('setup.accept_licence')} checked={form.values.accept_license} onChange={(v) => form.set('accept_license', v)} error={form.error('accept_license')} />
      <FormField label={t('setup.purchase_code')} name="purchase_code" value={form.values.purchase_code} onChange={(e) => form.set('purchase_code', e.target.value)} error={form.error('purchase_code')} required={false} maxLength={100} placeholder={t('setup.optional')} />
    </StepForm>
  );
}

export function DatabaseStep({ state, onSaved, onBack }: StepProps) {
  const t = useT();
  const saved = state.values.database ?? {};
  const form = useStepForm({ driver: str(saved.driver, 'embedded'), database_url: '' });
  const current = state.database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite';
  const submit = () => void form.save('database', form.values.driver === 'postgres' ? form.values : { driver: 'embedded' }).then((s) => s && onSaved(s));
  const option = (value: string, title: string, text: string, disabled = false) => (
    <label className={`flex cursor-pointer gap-3 rounded-control border p-4 ${form.values.driver === value ? 'border-brand bg-brand-soft/40' : 'border-border'} ${disabled ? 'pointer-events-none opacity-50' : ''}`}>
      <input type="radio" name="driver" className="mt-1 accent-[var(--brand)]" value={value} checked={form.values.driver === value} disabled={disabled} onChange={() => form.set('driver', value)} />
      <span>
        <span className="block font-medium">{title}</span>
        <span className="block text-sm text-muted">{text}</span>
      </span>
    </label>
  );
  return (
    <StepForm onSubmit={submit} onBack={onBack} busy={form.busy} message={form.message}>
      <fieldset className="grid gap-3">
        <legend className="sr-only">{t('setup.database_choice')}</legend>
        {option('embedded', t('setup.db_keep', { current }), state.database.fromEnvironment ? t('setup.db_from_env') : t('setup.db_keep_text'))}
        {option('postgres', t('setup.db_postgres'), t('setup.db_postgres_text'), state.database.fromEnvironment)}
      </fieldset>
      {form.values.driver === 'postgres' && (
        <div className="mt-5">
          <FormField label={t('setup.database_url')} name="database_url" value={form.values.database_url} onChange={(e) => form.set('database_url', e.target.value)} error={form.error('database_url')} placeholder="postgres://user:password@127.0.0.1:5432/clouddrive" autoComplete="off" spellCheck={false} />
        </div>
      )}
    </StepForm>
  );
}

export function EnvironmentStep({ state, onSaved, onBack }: StepProps) {
  const t = useT();
  const saved = state.values.environment ?? {};
  const form = useStepForm({
    storage_driver: str(saved.storage_driver, 'local'),
    s3_endpoint: str(saved.s3_endpoint),
    s3_region: str(saved.s3_region, 'us-east-1'),
    s3_bucket: str(saved.s3_bucket),
    s3_access_key_id: str(saved.s3_access_key_id),
    s3_secret_access_key: '',
    s3_force_path_style: saved.s3_force_path_style === true,
    s3_checksums: str(saved.s3_checksums, 'when_supported'),
    mail_driver: str(saved.mail_driver, 'log'),
    mail_host: str(saved.mail_host),
    mail_port: str(saved.mail_port, '587'),
    mail_username: str(saved.mail_username),
    mail_password: str(saved.mail_password),
    mail_encryption: str(saved.mail_encryption, 'tls'),
    mail_from_address: str(saved.mail_from_address),
    mail_from_name: str(saved.mail_from_name, 'Cloud Drive'),
    test_email: '',
  });
  const [notice, setNotice] = useState('');
  const [storageNotice, setStorageNotice] = useState('');
  const { test_email, ...env } = form.values;
  const s3 = form.values.storage_driver === 's3';
  const secretSaved = typeof saved.s3_secret_sealed === 'string' && saved.s3_secret_sealed !== '';
  const checkStorage = () =>
    void form.run(async () => {
      setStorageNotice('');
      const res = await call<{ message: string }>('POST', 'test-storage', env);
      setStorageNotice(res.message);
    });
  const smtp = form.values.mail_driver !== 'log';
  const submit = () => void form.save('environment', env).then((s) => s && onSaved(s));
  const sendTest = () =>
    void form.run(async () => {
      setNotice('');
      const res = await call<{ message: string }>('POST', 'test-mail', { ...env, test_email });
      setNotice(res.message);
    });
  const text = (name: Exclude<keyof typeof form.values, 's3_force_path_style'>, label: string, extra: Record<string, unknown> = {}) => (
    <FormField label={label} name={name} value={form.values[name]} onChange={(e) => form.set(name, e.target.value)} error={form.error(name)} {...extra} />
  );
  return (
    <StepForm onSubmit={submit} onBack={onBack} busy={form.busy} message={form.message}>
      <h2 className="mb-3 font-semibold">{t('setup.storage')}</h2>
      <Select
        label={t('setup.storage_driver')}
        value={form.values.storage_driver}
        onChange={(v) => form.set('storage_driver', v)}
        options={[
          { value: 'local', label: t('setup.storage_local') },
          { value: 's3', label: t('s3_storage.driver_s3') },
        ]}
        error={form.error('storage_driver')}
      />
      {s3 && (
        <div className="mb-2">
          <p className="mb-4 text-sm text-muted">{t('s3_storage.intro')}</p>
          <div className="grid gap-x-4 sm:grid-cols-2">
            {text('s3_endpoint', t('s3_storage.endpoint'), { required: false, placeholder: 'http://minio:9000', spellCheck: false, autoComplete: 'off' })}
            {text('s3_region', t('s3_storage.region'), { spellCheck: false, autoComplete: 'off' })}
            {text('s3_bucket', t('s3_storage.bucket'), { spellCheck: false, autoComplete: 'off' })}
            <Select label={t('s3_storage.checksums')} value={form.values.s3_checksums} onChange={(v) => form.set('s3_checksums', v)} options={[{ value: 'when_supported', label: t('s3_storage.checksums_supported') }, { value: 'when_required', label: t('s3_storage.checksums_required') }]} error={form.error('s3_checksums')} />
            {text('s3_access_key_id', t('s3_storage.access_key'), { required: false, spellCheck: false, autoComplete: 'off' })}
            {text('s3_secret_access_key', t('s3_storage.secret_key'), { required: false, type: 'password', autoComplete: 'new-password', placeholder: secretSaved ? t('s3_storage.secret_saved') : '' })}
          </div>
          <Checkbox label={t('s3_storage.path_style')} hint={t('s3_storage.path_style_hint')} checked={form.values.s3_force_path_style} onChange={(c) => form.set('s3_force_path_style', c)} error={form.error('s3_force_path_style')} />
          <div className="rounded-control border border-border bg-surface-2 p-4">
            <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-sm text-muted">{t('s3_storage.check_text')}</p>
              <button type="button" className="btn-secondary shrink-0" onClick={checkStorage} disabled={form.busy || !form.values.s3_bucket}>
                {t('s3_storage.check')}
              </button>
            </div>
            {storageNotice && (
              <p className="notice-success mt-3" role="status">
                {storageNotice}
              </p>
            )}
          </div>
        </div>
      )}
      <h2 className="mb-3 mt-6 font-semibold">{t('setup.mail')}</h2>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Select label={t('setup.mail_driver')} value={form.values.mail_driver} onChange={(v) => form.set('mail_driver', v)} options={['log', 'smtp', 'mailgun', 'ses', 'postmark'].map((d) => ({ value: d, label: t(`setup.mail_driver_${d}`) }))} error={form.error('mail_driver')} />
        {smtp && <Select label={t('setup.mail_encryption')} value={form.values.mail_encryption} onChange={(v) => form.set('mail_encryption', v)} options={['tls', 'ssl', 'none'].map((d) => ({ value: d, label: d.toUpperCase() }))} error={form.error('mail_encryption')} />}
        {smtp && text('mail_host', t('setup.mail_host'), { placeholder: 'smtp.example.com' })}
        {smtp && text('mail_port', t('setup.mail_port'), { inputMode: 'numeric' })}
        {smtp && text('mail_username', t('setup.mail_username'), { required: false, autoComplete: 'off' })}
        {smtp && text('mail_password', t('setup.mail_password'), { required: false, type: 'password', autoComplete: 'new-password' })}
        {text('mail_from_address', t('setup.mail_from_address'), { type: 'email', placeholder: 'no-reply@example.com', required: smtp })}
        {text('mail_from_name', t('setup.mail_from_name'))}
      </div>
      <div className="mt-2 rounded-control border border-border bg-surface-2 p-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="flex-1 [&>div]:mb-0">{text('test_email', t('setup.test_email'), { type: 'email', required: false })}</div>
          <button type="button" className="btn-secondary" onClick={sendTest} disabled={form.busy || !test_email}>
            {t('setup.send_test')}
          </button>
        </div>
        {notice && (
          <p className="notice-success mt-3" role="status">
            {notice}
          </p>
        )}
      </div>
    </StepForm>
  );
}

export function AppSetupStep({ state, onSaved, onBack }: StepProps) {
  const t = useT();
  const saved = state.values['app-setup'] ?? {};
  const form = useStepForm({
    app_name: str(saved.app_name, 'Cloud Drive'),
    app_description: str(saved.app_description),
    contact_email: str(saved.contact_email),
    registration_open: saved.registration_open !== false,
    default_storage_gb: str(saved.default_storage_gb, '5'),
    subscription_type: str(saved.subscription_type, 'none'),
    logo_horizontal: str(saved.logo_horizontal),
    logo_horizontal_dark: str(saved.logo_horizontal_dark),
  });
  const submit = () => void form.save('app-setup', form.values).then((s) => s && onSaved(s));
  const text = (name: Exclude<keyof typeof form.values, 'registration_open'>, label: string, extra: Record<string, unknown> = {}) => (
    <FormField label={label} name={name} value={form.values[name]} onChange={(e) => form.set(name, e.target.value)} error={form.error(name)} {...extra} />
  );
  const logo = (name: 'logo_horizontal' | 'logo_horizontal_dark', label: string) => (
    <div className="mb-4">
      <div className="[&>div]:mb-1.5">{text(name, label, { required: false, placeholder: 'https://… or /branding/…' })}</div>
      <div className="flex items-center gap-3">
        <label className="link cursor-pointer text-sm">
          {t('setup.upload_logo')}
          <input
            type="file"
            className="sr-only"
            accept="image/png,image/jpeg,image/webp"
            aria-label={`${label}: ${t('setup.upload_logo')}`}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void form.run(async () => form.set(name, await uploadLogo(file)));
            }}
          />
        </label>
        {form.values[name] && <img src={form.values[name]} alt="" width={120} height={24} className={`h-6 w-auto max-w-[140px] rounded object-contain p-0.5 ${name === 'logo_horizontal_dark' ? 'bg-[#0f1115]' : 'bg-white'}`} />}
      </div>
    </div>
  );
  return (
    <StepForm onSubmit={submit} onBack={onBack} busy={form.busy} message={form.message}>
      <div className="grid gap-x-4 sm:grid-cols-2">
        {text('app_name', t('setup.app_name'), { maxLength: 60 })}
        {text('contact_email', t('setup.contact_email'), { type: 'email' })}
      </div>
      {text('app_description', t('setup.app_description'), { required: false, maxLength: 300 })}
      <div className="grid gap-x-4 sm:grid-cols-2">
        {logo('logo_horizontal', t('setup.logo'))}
        {logo('logo_horizontal_dark', t('setup.logo_dark'))}
        {text('default_storage_gb', t('setup.default_storage'), { inputMode: 'decimal' })}
        <Select label={t('setup.subscription_type')} value={form.values.subscription_type} onChange={(v) => form.set('subscription_type', v)} options={['none', 'fixed', 'metered'].map((v) => ({ value: v, label: t(`setup.subscription_${v}`) }))} error={form.error('subscription_type')} />
      </div>
      <Checkbox label={t('setup.registration_open')} checked={form.values.registration_open} onChange={(v) => form.set('registration_open', v)} error={form.error('registration_open')} />
    </StepForm>
  );
}

export function AdminSetupStep({ onBack }: StepProps) {
  const t = useT();
  const form = useStepForm({ name: '', email: '', password: '', password_confirmation: '' });
  const submit = () =>
    void form.run(async () => {
      await call('POST', 'admin-setup', form.values);
      location.assign('/admin/dashboard');
    });
  const text = (name: keyof typeof form.values, label: string, extra: Record<string, unknown> = {}) => (
    <FormField label={label} name={name} value={form.values[name]} onChange={(e) => form.set(name, e.target.value)} error={form.error(name)} {...extra} />
  );
  return (
    <StepForm onSubmit={submit} onBack={onBack} busy={form.busy} message={form.message} submitLabel={t('setup.finish')}>
      {text('name', t('setup.admin_name'), { autoComplete: 'name', maxLength: 120 })}
      {text('email', t('auth.email'), { type: 'email', autoComplete: 'email' })}
      <div className="grid gap-x-4 sm:grid-cols-2">
        <div>
          {text('password', t('auth.password'), { type: 'password', autoComplete: 'new-password' })}
          <PasswordStrength password={form.values.password} related={[form.values.name, form.values.email]} minimum={3} />
        </div>
        {text('password_confirmation', t('setup.password_confirmation'), { type: 'password', autoComplete: 'new-password' })}
      </div>
      <p className="text-sm text-muted">{t('setup.password_hint')}</p>
    </StepForm>
  );
}
