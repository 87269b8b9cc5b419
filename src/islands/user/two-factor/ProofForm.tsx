import { useState, type FormEvent } from 'react';
import { FormField } from '../../../components/FormField.tsx';
import { ApiError } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';
import type { Proof } from './client.ts';

/** Asks for the password (or, for an account without one, a code) before a change to the second factor. */
export function ProofForm({ kind, text, submitLabel, danger, run, onCancel }: { kind: 'password' | 'code'; text: string; submitLabel: string; danger?: boolean; run: (proof: Proof) => Promise<void>; onCancel: () => void }) {
  const t = useT();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get(kind) ?? '');
    setBusy(true);
    setError('');
    try {
      await run(kind === 'password' ? { password: value } : { code: value });
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) setError(err.errors[kind]?.[0] ?? err.message);
      else toast('danger', err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="mt-4 rounded-control border border-border p-4" onSubmit={(e) => void submit(e)} noValidate>
      <p className="mb-3 text-sm text-muted">{text}</p>
      {kind === 'password' ? (
        <FormField label={t('two_factor.password_label')} name="password" type="password" autoComplete="current-password" maxLength={128} error={error || undefined} autoFocus />
      ) : (
        <FormField label={t('two_factor.code_from_app')} name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={7} className="input max-w-[12rem] font-mono tracking-widest" error={error || undefined} autoFocus />
      )}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={danger ? 'btn-secondary border-danger/60 text-danger-text' : 'btn-primary'} disabled={busy}>
          {submitLabel}
        </button>
        <button type="button" className="btn-secondary" onClick={onCancel} disabled={busy}>
          {t('two_factor.cancel')}
        </button>
      </div>
    </form>
  );
}
