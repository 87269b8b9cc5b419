import { useState, type FormEvent, type ReactNode } from 'react';
import { useT } from '../../stores/i18n.ts';
import { ApiError } from '../../stores/api.ts';
import { call, type SetupState } from './api.ts';

type Values = Record<string, string | boolean>;

/** One step's form: values (prefilled from what was saved), field errors from the server, saving. */
export function useStepForm<V extends Values>(initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const set = (name: keyof V, value: string | boolean) => setValues((v) => ({ ...v, [name]: value }));

  async function run<T>(action: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    setErrors({});
    setMessage('');
    try {
      return await action();
    } catch (error) {
      if (error instanceof ApiError) {
        setErrors(error.errors);
        // A field's error shows under the field; the banner carries only what no field on the form shows.
        const elsewhere = Object.entries(error.errors).filter(([field]) => !(field in values));
        const fields = Object.keys(error.errors).length;
        setMessage(fields === 0 ? error.message : elsewhere.flatMap(([, messages]) => messages.slice(0, 1)).join(' '));
      } else setMessage(String(error));
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  const save = (path: string, body: Record<string, unknown>) => run(async () => (await call<{ data: SetupState }>('POST', path, body)).data);
  const error = (name: string) => errors[name]?.[0];
  return { values, set, errors, error, message, setMessage, busy, run, save };
}

export function StepForm({ onSubmit, onBack, busy, message, submitLabel, children }: { onSubmit: () => void; onBack?: (() => void) | undefined; busy: boolean; message: string; submitLabel?: string; children: ReactNode }) {
  const t = useT();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form onSubmit={submit} noValidate>
      {message && (
        <p className="notice-danger mb-5" role="alert">
          {message}
        </p>
      )}
      {children}
      <div className="mt-8 flex flex-wrap items-center justify-between gap-3 border-t border-border pt-6">
        {onBack ? (
          <button type="button" className="btn-secondary" onClick={onBack}>
            {t('setup.back')}
          </button>
        ) : (
          <span />
        )}
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy && <span className="size-4 animate-spin rounded-full border-2 border-on-brand/40 border-t-on-brand" aria-hidden />}
          {submitLabel ?? t('setup.continue')}
        </button>
      </div>
    </form>
  );
}

/** The form controls the wizard shares with the rest of the product. */
export { SelectField as Select } from '../../components/SelectField.tsx';
export { CheckboxField as Checkbox } from '../../components/CheckboxField.tsx';

/** Saved values come back as unknown JSON: read them as form strings. */
export const str = (v: unknown, fallback = '') => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : fallback);
