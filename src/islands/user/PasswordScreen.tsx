import { useState, type FormEvent } from 'react';
import { FormField } from '../../components/FormField.tsx';
import { PasswordStrength } from '../../components/PasswordStrength.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { api, ApiError } from '../../stores/api.ts';
import { useT } from '../../stores/i18n.ts';
import { toast } from '../../stores/ui.ts';
import { LinkedAccountsCard } from './LinkedAccountsCard.tsx';
import { PasskeysCard } from './PasskeysCard.tsx';
import { SettingsNav } from './SettingsNav.tsx';
import { TwoFactorCard } from './two-factor/TwoFactorCard.tsx';

export default function PasswordScreen() {
  const t = useT();
  useTitle(t('password.title'));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const [password, setPassword] = useState('');

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = Object.fromEntries(new FormData(form)) as Record<string, string>;
    setBusy(true);
    setErrors({});
    try {
      await api.patch('/api/user/password', data);
      form.reset();
      setPassword('');
      toast('success', t('password.changed'));
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) setErrors(error.errors);
      else toast('danger', error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <PageHeader title={t('password.title')} subtitle={t('password.subtitle')} />
      <SettingsNav />
      <form className="card max-w-lg p-6" onSubmit={(e) => void submit(e)} noValidate>
        <FormField label={t('password.current')} name="current_password" type="password" autoComplete="current-password" error={errors.current_password?.[0]} maxLength={128} />
        <FormField label={t('password.new')} name="password" type="password" autoComplete="new-password" error={errors.password?.[0]} maxLength={128} onChange={(e) => setPassword(e.target.value)} />
        <PasswordStrength password={password} />
        <FormField label={t('password.confirm')} name="password_confirmation" type="password" autoComplete="new-password" error={errors.password_confirmation?.[0]} maxLength={128} />
        <button type="submit" className="btn-primary mt-2" disabled={busy}>
          {t('password.submit')}
        </button>
      </form>
      <TwoFactorCard />
      <PasskeysCard />
      <LinkedAccountsCard />
    </div>
  );
}
