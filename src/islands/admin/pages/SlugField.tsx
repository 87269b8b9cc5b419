import { useId } from 'react';
import { useT } from '../../../stores/i18n.ts';
import { SLUG_MAX } from './slug.ts';

/** The page's address: its slug after a fixed `/page/`, read-only where the page must keep it. */
export function SlugField({ value, onChange, error, readOnly }: { value: string; onChange: (v: string) => void; error?: string | undefined; readOnly: boolean }) {
  const t = useT();
  const id = useId();
  const described = [error && `${id}-error`, readOnly && `${id}-hint`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="mb-4">
      <label className="label" htmlFor={id}>
        {t('admin_pages.field_slug')}
      </label>
      <div
        className={`flex items-stretch overflow-hidden rounded-control border transition-colors focus-within:border-brand focus-within:ring-2 focus-within:ring-ring/30 ${
          error ? 'border-danger' : 'border-border'
        } ${readOnly ? 'bg-surface-2' : 'bg-surface'}`}
      >
        <span className="flex items-center border-r border-border bg-surface-2 px-3 font-mono text-sm text-muted" aria-hidden>
          /page/
        </span>
        <input
          id={id}
          name="slug"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          readOnly={readOnly}
          maxLength={SLUG_MAX}
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          className={`min-w-0 flex-1 bg-transparent px-3 py-2.5 font-mono text-[15px] outline-none focus-visible:outline-none ${readOnly ? 'text-muted' : 'text-text'}`}
        />
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
      {readOnly && (
        <p id={`${id}-hint`} className="mt-1.5 text-sm text-muted">
          {t('admin_pages.slug_fixed')}
        </p>
      )}
    </div>
  );
}
