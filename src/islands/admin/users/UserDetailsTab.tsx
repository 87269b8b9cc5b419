import { BadgeCheck, CircleAlert } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { FormField } from '../../../components/FormField.tsx';
import { ApiError } from '../../../stores/api.ts';
import { formatDateTime } from '../../../stores/dates.ts';
import { useT } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';
import { updateUser, type AdminUserDetail, type Role } from './client.ts';

/** The details tab: name, email, verified state and role, saved together (only what changed is sent). */
export default function UserDetailsTab({ user, onChanged }: { user: AdminUserDetail; onChanged: (user: AdminUserDetail) => void }) {
  const t = useT();
  const a = user.data.attributes;
  const [name, setName] = useState(a.name);
  const [email, setEmail] = useState(a.email);
  const [role, setRole] = useState<Role>(a.role);
  const [verified, setVerified] = useState(a.email_verified_at !== null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const roleId = useId();
  const roleHint = useId();

  const patch = {
    ...(name !== a.name ? { name } : {}),
    ...(email.trim().toLowerCase() !== a.email ? { email } : {}),
    ...(role !== a.role ? { role } : {}),
    ...(verified !== (a.email_verified_at !== null) ? { verified } : {}),
  };
  const dirty = Object.keys(patch).length > 0;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!dirty) return;
    setBusy(true);
    setErrors({});
    try {
      const saved = await updateUser(user.data.id, patch);
      const s = saved.data.attributes;
      setName(s.name);
      setEmail(s.email);
      setRole(s.role);
      setVerified(s.email_verified_at !== null);
      onChanged(saved);
      toast('success', t('admin_users.saved'));
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) setErrors(error.errors);
      else toast('danger', error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card max-w-xl p-6" onSubmit={(e) => void submit(e)} noValidate>
      <FormField label={t('admin_users.name')} name="name" value={name} maxLength={120} autoComplete="off" error={errors.name?.[0]} onChange={(e) => setName(e.target.value)} />
      <FormField label={t('admin_users.email')} name="email" type="email" value={email} maxLength={255} autoComplete="off" error={errors.email?.[0]} onChange={(e) => setEmail(e.target.value)} />
      {'email' in patch && !('verified' in patch) && a.email_verified_at && <p className="-mt-2 mb-4 text-sm text-muted">{t('admin_users.email_change_unverifies')}</p>}

      <div className="mb-4 rounded-control border border-border px-4 py-3">
        <p className="flex items-center gap-2 text-sm font-medium">
          {a.email_verified_at ? <BadgeCheck className="size-4 text-success" aria-hidden /> : <CircleAlert className="size-4 text-warning" aria-hidden />}
          {a.email_verified_at ? t('admin_users.verified_on', { date: formatDateTime(a.email_verified_at) }) : t('admin_users.not_verified')}
        </p>
        <label className="mt-2 flex items-center gap-2 text-sm">
          <input type="checkbox" checked={verified} onChange={(e) => setVerified(e.target.checked)} className="size-4 accent-[var(--brand)]" />
          {t('admin_users.mark_verified')}
        </label>
        {errors.verified && <p className="field-error">{errors.verified[0]}</p>}
      </div>

      <div className="mb-2">
        <label className="label" htmlFor={roleId}>
          {t('admin_users.role')}
        </label>
        <select
          id={roleId}
          className="input"
          value={role}
          disabled={!user.meta.abilities.change_role}
          aria-describedby={!user.meta.abilities.change_role ? roleHint : undefined}
          aria-invalid={errors.role ? true : undefined}
          onChange={(e) => setRole(e.target.value as Role)}
        >
          <option value="user">{t('admin_users.role_user')}</option>
          <option value="admin">{t('admin_users.role_admin')}</option>
        </select>
        {!user.meta.abilities.change_role && (
          <p id={roleHint} className="mt-1.5 text-sm text-muted">
            {t('admin_users.own_role')}
          </p>
        )}
        {errors.role && <p className="field-error">{errors.role[0]}</p>}
      </div>
      {errors._ && <p className="field-error">{errors._[0]}</p>}
      <button type="submit" className="btn-primary mt-4" disabled={busy || !dirty}>
        {t('admin_users.save')}
      </button>
    </form>
  );
}
