import { useId } from 'react';
import { describedBy, FieldNotes } from './FieldNotes.tsx';

/** A checkbox with its label beside it, an optional hint under the label, and its field error. */
export function CheckboxField({ label, checked, onChange, error, hint }: { label: string; checked: boolean; onChange: (v: boolean) => void; error?: string | undefined; hint?: string | undefined }) {
  const id = useId();
  const described = describedBy(id, hint, error);
  return (
    <div className="mb-4">
      <label className="inline-flex cursor-pointer items-start gap-2.5 text-[15px]">
        <input type="checkbox" className="mt-0.5 size-4 shrink-0 rounded accent-[var(--brand)]" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-invalid={error ? true : undefined} aria-describedby={described} />
        <span>{label}</span>
      </label>
      <FieldNotes id={id} hint={hint} error={error} hintClassName="mt-0.5 pl-[26px] text-sm text-muted" />
    </div>
  );
}
