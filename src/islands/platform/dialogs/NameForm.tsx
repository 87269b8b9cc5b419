import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../../../stores/api.ts';
import { closeDialog } from '../../../stores/dialogs.ts';
import { useT } from '../../../stores/i18n.ts';
import { showAlert } from '../../../stores/ui.ts';
import { DialogButtons } from './DialogFrame.tsx';

export const FOCUS_DELAY_MS = 10;
const isMobile = () => matchMedia('(pointer: coarse)').matches && !matchMedia('(min-width: 1024px)').matches;

/** A name field with its 422 error, focused (and selected) 10 ms after opening on non-mobile devices. */
export function NameForm({ initial, submitLabel, onSubmit, adornment, children }: { initial: string; submitLabel: string; onSubmit: (name: string) => Promise<void>; adornment?: ReactNode; children?: ReactNode }) {
  const t = useT();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(initial);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (isMobile()) return;
    const timer = setTimeout(() => {
      input.current?.focus();
      const dot = initial.lastIndexOf('.');
      input.current?.setSelectionRange(0, dot > 0 ? dot : initial.length);
    }, FOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [initial]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      await onSubmit(name);
      closeDialog();
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) setError(err.errors.name?.[0] ?? err.message);
      else {
        closeDialog();
        showAlert({ title: t('popup_error.title'), message: err instanceof ApiError ? err.message : t('popup_error.message') });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <label className="label" htmlFor={id}>
        {t('files.name')}
      </label>
      <div className="flex items-center gap-2">
      {adornment}
      <input
        ref={input}
        id={id}
        className="input"
        value={name}
        maxLength={255}
        onChange={(e) => setName(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
      {children}
      <DialogButtons cancel={t('actions.cancel')} submit={submitLabel} busy={busy} />
    </form>
  );
}
