import { KeyRound, Mail } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { FormField } from '../../../components/FormField.tsx';
import { PasswordStrength } from '../../../components/PasswordStrength.tsx';
import { ApiError } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';
import { sendUserResetLink, setUserPassword, type AdminUserDetail, type PasswordResult } from './client.ts';
import { UserTwoFactorReset } from './UserTwoFactorReset.tsx';

/** The password tab: set a new password, or mail a link to choose one; either signs the account out everywhere. */
export default function UserPasswordTab({ user }: { user: AdminUserDetail }) {
  const t = useT();
  const a = user.data.attributes;
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState<'set' | 'send_link' | null>(null);

  const done = (result: PasswordResult) =>
    toast(
      'success',
      `${result.meta.action === 'set' ? t('admin_users.password_set') : t('admin_users.link_sent', { email: a.email })} ${t('admin_users.signed_out', { sessions: result.meta.sessions_ended, tokens: result.meta.access_tokens_revoked })}`,
    );

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setBusy('set');
    setErrors({});
    try {
      done(await setUserPassword(user.data.id, String(data.get('password') ?? ''), String(data.get('password_confirmation') ?? '')));
      form.reset();
      setPassword('');
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) setErrors(error.errors);
      else toast('danger', error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(null);
    }
  };

  const sendLink = async () => {
    setBusy('send_link');
    try {
      done(await sendUserResetLink(user.data.id));
    } catch (error) {
      toast('danger', error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="grid max-w-4xl items-start gap-6 lg:grid-cols-2">
      <form className="card p-6" onSubmit={(e) => void submit(e)} noValidate>
        <h2 className="mb-1 flex items-center gap-2 text-lg font-bold">
          <KeyRound className="size-5 text-muted" aria-hidden />
          {t('admin_users.set_password')}
        </h2>
        <p className="mb-5 text-sm text-muted">{t('admin_users.set_password_text')}</p>
        <FormField label={t('admin_users.new_password')} name="password" type="password" autoComplete="new-password" maxLength={128} error={errors.password?.[0]} onChange={(e) => setPassword(e.target.value)} />
        <PasswordStrength password={password} related={[a.name, a.email]} minimum={a.role === 'admin' ? 3 : 2} />
        <FormField label={t('admin_users.password_confirm')} name="password_confirmation" type="password" autoComplete="new-password" maxLength={128} error={errors.password_confirmation?.[0]} />
        <button type="submit" className="btn-primary mt-2" disabled={busy !== null}>
          {t('admin_users.set_password_submit')}
        </button>
      </form>
      <section className="card p-6">
        <h2 className="mb-1 flex items-center gap-2 text-lg font-bold">
          <Mail className="size-5 text-muted" aria-hidden />
          {t('admin_users.send_link')}
        </h2>
        <p className="mb-5 text-sm [overflow-wrap:anywhere] text-muted">{t('admin_users.send_link_text', { email: a.email })}</p>
        <button type="button" className="btn-secondary" disabled={busy !== null} onClick={() => void sendLink()}>
          {t('admin_users.send_link_submit')}
        </button>
      </section>
      {user.meta.two_factor_enabled && <UserTwoFactorReset user={user} />}
    </div>
  );
}
