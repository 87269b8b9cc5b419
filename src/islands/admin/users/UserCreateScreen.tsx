import { ArrowLeft } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { FormField } from '../../../components/FormField.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PasswordStrength } from '../../../components/PasswordStrength.tsx';
import { useTitle } from '../../../components/useTitle.ts';
import { ApiError } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import { $router, openPage } from '../../../stores/router.ts';
import { toast } from '../../../stores/ui.ts';
import { createUser, type Role } from './client.ts';
import { LIMIT_UNITS, type LimitUnit } from './userStorage.ts';

/**
 * /admin/user/create: name, email, role, storage limit, and either a password now or an invitation
 * mail with a link to choose one. (The storage tab changes the limit later.)
 */
export default function UserCreateScreen() {
  const t = useT();
  useTitle(t('admin_users.create_title'));
  const [role, setRole] = useState<Role>('user');
  const [method, setMethod] = useState<'password' | 'invitation'>('password');
  const [password, setPassword] = useState('');
  const [related, setRelated] = useState({ name: '', email: '' });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const roleId = useId();
  const limitId = useId();
  const [limit, setLimit] = useState<'default' | 'unlimited' | 'custom'>('default');
  const [limitUnit, setLimitUnit] = useState<LimitUnit>('GB');

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '');
    let storageLimit: number | null = limit === 'default' ? null : 0;
    if (limit === 'custom') {
      const value = Number(text('limit_amount').trim().replace(',', '.'));
      if (!text('limit_amount').trim() || !Number.isFinite(value) || value <= 0) {
        setErrors({ storage_limit_bytes: [t('admin_users.storage_limit_amount_invalid')] });
        return;
      }
      storageLimit = Math.max(1, Math.round(value * LIMIT_UNITS[limitUnit]));
    }
    setBusy(true);
    setErrors({});
    try {
      const created = await createUser({
        name: text('name'),
        email: text('email'),
        role,
        send_invitation: method === 'invitation',
        verified: method === 'password' && data.get('verified') === 'on',
        storage_limit_bytes: storageLimit,
        ...(method === 'password' ? { password: text('password'), password_confirmation: text('password_confirmation') } : {}),
      });
      if (created.meta.invitation_sent === false) toast('danger', t('admin_users.invitation_failed'));
      else toast('success', method === 'invitation' ? t('admin_users.created_invited', { email: created.data.attributes.email }) : t('admin_users.created'));
      openPage($router, 'adminUser', { id: created.data.id });
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) setErrors(error.errors);
      else toast('danger', error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <a href="/admin/users" className="link mb-3 inline-flex items-center gap-1.5 text-sm">
        <ArrowLeft className="size-4" aria-hidden />
        {t('admin_users.back_to_list')}
      </a>
      <PageHeader title={t('admin_users.create_title')} subtitle={t('admin_users.create_subtitle')} />
      <form className="card max-w-xl p-6" onSubmit={(e) => void submit(e)} noValidate>
        <FormField label={t('admin_users.name')} name="name" autoComplete="off" maxLength={120} error={errors.name?.[0]} onChange={(e) => setRelated({ ...related, name: e.target.value })} />
        <FormField label={t('admin_users.email')} name="email" type="email" autoComplete="off" maxLength={255} error={errors.email?.[0]} onChange={(e) => setRelated({ ...related, email: e.target.value })} />
        <div className="mb-4">
          <label className="label" htmlFor={roleId}>
            {t('admin_users.role')}
          </label>
          <select id={roleId} className="input" value={role} onChange={(e) => setRole(e.target.value as Role)} aria-invalid={errors.role ? true : undefined}>
            <option value="user">{t('admin_users.role_user')}</option>
            <option value="admin">{t('admin_users.role_admin')}</option>
          </select>
          {errors.role && <p className="field-error">{errors.role[0]}</p>}
        </div>
        <div className="mb-4">
          <label className="label" htmlFor={limitId}>
            {t('admin_users.storage_limit_title')}
          </label>
          <div className="flex flex-wrap gap-3">
            <select id={limitId} className="input w-auto min-w-48 flex-1" value={limit} onChange={(e) => setLimit(e.target.value as typeof limit)} aria-invalid={errors.storage_limit_bytes ? true : undefined}>
              <option value="default">{t('admin_users.create_limit_default')}</option>
              <option value="unlimited">{t('admin_users.storage_limit_unlimited')}</option>
              <option value="custom">{t('admin_users.storage_limit_custom')}</option>
            </select>
            {limit === 'custom' && (
              <>
                <input name="limit_amount" className="input w-28 tabular-nums" inputMode="decimal" autoComplete="off" aria-label={t('admin_users.storage_limit_amount')} aria-invalid={errors.storage_limit_bytes ? true : undefined} />
                <select className="input w-24" value={limitUnit} onChange={(e) => setLimitUnit(e.target.value as LimitUnit)} aria-label={t('admin_users.storage_limit_unit')}>
                  {Object.keys(LIMIT_UNITS).map((u) => (
                    <option key={u} value={u}>
                      {u}
                    </option>
                  ))}
                </select>
              </>
            )}
          </div>
          {errors.storage_limit_bytes && <p className="field-error">{errors.storage_limit_bytes[0]}</p>}
        </div>

        <fieldset className="mb-4">
          <legend className="label">{t('admin_users.sign_in_method')}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {(['password', 'invitation'] as const).map((value) => (
              <label
                key={value}
                className={`flex cursor-pointer items-start gap-3 rounded-control border p-3 text-sm transition-colors ${method === value ? 'border-brand bg-brand-soft/40' : 'border-border hover:bg-surface-2'}`}
              >
                <input type="radio" name="method" value={value} checked={method === value} onChange={() => setMethod(value)} className="mt-0.5 accent-[var(--brand)]" />
                <span>
                  <span className="block font-semibold">{t(`admin_users.method_${value}`)}</span>
                  <span className="block text-muted">{t(`admin_users.method_${value}_text`)}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>

        {method === 'password' ? (
          <>
            <FormField label={t('admin_users.password')} name="password" type="password" autoComplete="new-password" maxLength={128} error={errors.password?.[0]} onChange={(e) => setPassword(e.target.value)} />
            <PasswordStrength password={password} related={[related.name, related.email]} minimum={role === 'admin' ? 3 : 2} />
            <FormField label={t('admin_users.password_confirm')} name="password_confirmation" type="password" autoComplete="new-password" maxLength={128} error={errors.password_confirmation?.[0]} />
            <label className="mb-2 flex items-center gap-2 text-sm">
              <input type="checkbox" name="verified" className="size-4 accent-[var(--brand)]" />
              {t('admin_users.mark_verified')}
            </label>
            {errors.verified && <p className="field-error">{errors.verified[0]}</p>}
          </>
        ) : (
          <p className="notice border-border bg-surface-2 text-muted">{t('admin_users.invitation_note')}</p>
        )}
        <div className="mt-6 flex flex-wrap gap-3">
          <button type="submit" className="btn-primary" disabled={busy}>
            {t('admin_users.create_submit')}
          </button>
          <a href="/admin/users" className="btn-secondary">
            {t('admin_users.cancel')}
          </a>
        </div>
      </form>
    </div>
  );
}
