import { useId, type InputHTMLAttributes } from 'react';
import { describedBy, FieldNotes } from './FieldNotes.tsx';

/** A labelled input with an optional hint and its field error, the React twin of components/astro/Field.astro. */
export function FormField({ label, error, hint, ...input }: { label: string; error?: string | undefined; hint?: string | undefined } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="mb-4">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="input" aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} {...input} />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
