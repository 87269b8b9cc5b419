import { useId } from 'react';
import { useT } from '../../../stores/i18n.ts';

/**
 * A write-only secret: the server only says whether one is saved. Typing replaces it, leaving the
 * field empty keeps it, and "Remove" clears it on save.
 */
export interface SecretDraft {
  value: string;
  remove: boolean;
}
export const emptySecret = (): SecretDraft => ({ value: '', remove: false });

/** What a save sends for the secret: nothing (keep), the new value, or null (clear). */
export function secretChange(draft: SecretDraft): string | null | undefined {
  if (draft.remove) return null;
  return draft.value.trim() ? draft.value.trim() : undefined;
}

export function SecretField({ label, saved, draft, onChange, error }: { label: string; saved: boolean; draft: SecretDraft; onChange: (d: SecretDraft) => void; error?: string | undefined }) {
  const t = useT();
  const id = useId();
  return (
    <div className="mb-4">
      <div className="mb-1.5 flex items-center justify-between gap-2">
        <label className="text-sm font-medium" htmlFor={id}>
          {label}
        </label>
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${saved ? 'bg-success/10 text-success-text' : 'bg-surface-2 text-muted'}`}>
          {saved ? t('admin_settings.signin_secret_saved') : t('admin_settings.signin_secret_not_set')}
        </span>
      </div>
      <input
        id={id}
        type="password"
        className="input"
        autoComplete="new-password"
        spellCheck={false}
        maxLength={512}
        value={draft.value}
        disabled={draft.remove}
        placeholder={saved ? t('admin_settings.signin_secret_keep') : ''}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange({ ...draft, value: e.target.value })}
      />
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
      {saved && (
        <label className="mt-2 inline-flex cursor-pointer items-center gap-2 text-sm text-muted">
          <input type="checkbox" className="size-4 accent-[var(--brand)]" checked={draft.remove} onChange={(e) => onChange({ value: '', remove: e.target.checked })} />
          {t('admin_settings.signin_secret_remove')}
        </label>
      )}
    </div>
  );
}
