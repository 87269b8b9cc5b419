import { useState, type FormEvent } from 'react';
import { FormField } from '../../components/FormField.tsx';
import { useT } from '../../stores/i18n.ts';
import { ApiError } from '../../stores/api.ts';
import { call } from './api.ts';

/** The one-time setup token from the server log, exchanged for a cookie before any wizard call. */
export function TokenGate({ onAccepted }: { onAccepted: () => void }) {
  const t = useT();
  const [token, setToken] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      await call('POST', 'token', { token });
      onAccepted();
    } catch (e) {
      setError(e instanceof ApiError ? (e.errors.token?.[0] ?? e.message) : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="card mx-auto max-w-lg p-6 sm:p-8">
      <h1 className="text-2xl font-bold tracking-tight">{t('setup.token_title')}</h1>
      <p className="mt-1.5 mb-6 text-[15px] text-muted">{t('setup.token_text')}</p>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <FormField label={t('setup.token_label')} name="token" value={token} onChange={(e) => setToken(e.target.value)} error={error} autoComplete="off" spellCheck={false} autoFocus />
        <button className="btn-primary w-full" type="submit" disabled={busy || !token.trim()}>
          {t('setup.token_submit')}
        </button>
      </form>
    </div>
  );
}
