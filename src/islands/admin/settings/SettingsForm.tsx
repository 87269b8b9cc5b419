import { useId, type FormEvent, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { describedBy, FieldNotes } from '../../../components/FieldNotes.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useT } from '../../../stores/i18n.ts';

/**
 * A settings tab's form: a spinner until its group is loaded, the tab's refusal message, the
 * sections, and a save bar (kept in view at the bottom of large screens while the form scrolls).
 */
export function SettingsForm({ loaded, message, busy, dirty, onSave, children, label }: { loaded: boolean; message: string; busy: boolean; dirty: boolean; onSave: () => void; children: ReactNode; label: string }) {
  const t = useT();
  if (!loaded) {
    return message ? (
      <p className="notice-danger" role="alert">
        {message}
      </p>
    ) : (
      <div className="flex justify-center py-16">
        <Spinner label={t('app.loading')} />
      </div>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={label} className="flex flex-col gap-6">
      {message && (
        <p className="notice-danger" role="alert">
          {message}
        </p>
      )}
      {children}
      {/* Kept in view on large screens, where a tab's form is taller than the window; the status sits by the
          button, clear of the cookie notice at the bottom left. */}
      <div className="z-10 flex flex-wrap items-center justify-end gap-x-4 gap-y-2 border-t border-border bg-bg/95 py-4 backdrop-blur lg:sticky lg:bottom-0">
        <p className="text-sm text-muted" aria-live="polite">
          {dirty ? t('admin_settings.unsaved') : t('admin_settings.all_saved')}
        </p>
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy && <span className="size-4 animate-spin rounded-full border-2 border-on-brand/40 border-t-on-brand" aria-hidden />}
          {t('admin_settings.save')}
        </button>
      </div>
    </form>
  );
}

/** A titled card of related fields. */
export function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="card p-5 sm:p-6" aria-labelledby={id}>
      <h2 id={id} className="text-lg font-bold">
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-muted">{description}</p>}
      <div className="mt-5">{children}</div>
    </section>
  );
}

/** A labelled textarea with its hint and field error, the multi-line twin of FormField. */
export function TextAreaField({ label, error, hint, ...input }: { label: string; error?: string | undefined; hint?: string | undefined } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  const described = describedBy(id, hint, error);
  return (
    <div className="mb-4">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <textarea id={id} className="input min-h-24 resize-y" aria-invalid={error ? true : undefined} aria-describedby={described} {...input} />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** A number input with its unit beside it (GB, MB, days), a hint and the field error. */
export function NumberField({ label, value, onChange, unit, hint, error, min, max, step }: { label: string; value: string; onChange: (v: string) => void; unit: string; hint?: string | undefined; error?: string | undefined; min?: number; max?: number; step?: number | 'any' }) {
  const id = useId();
  const described = describedBy(id, hint, error);
  return (
    <div className="mb-4">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input id={id} className="input max-w-40" type="number" inputMode="decimal" value={value} min={min} max={max} step={step} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={described} />
        <span className="text-sm text-muted">{unit}</span>
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
