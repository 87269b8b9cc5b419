import { Check, LoaderCircle, RotateCcw } from 'lucide-react';
import { useId, type KeyboardEvent } from 'react';
import { useT } from '../../../stores/i18n.ts';
import type { AdminLanguage, TranslationString } from './api.ts';

export type RowState = { status: 'saving' } | { status: 'saved' } | { status: 'error'; message: string };

interface Props {
  entry: TranslationString;
  language: AdminLanguage;
  /** What was typed and not saved yet, if anything. */
  draft: string | undefined;
  state: RowState | undefined;
  onDraft: (key: string, value: string) => void;
  onSave: (key: string, value: string | null) => void;
}

/** One key: its English text beside this language's, edited in place; Enter saves, Shift+Enter breaks the line. */
export function StringRow({ entry, language, draft, state, onDraft, onSave }: Props) {
  const t = useT();
  const id = useId();
  const value = draft ?? entry.value;
  const dirty = draft !== undefined && draft !== entry.value;
  const error = state?.status === 'error' ? state.message : '';
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (dirty) onSave(entry.key, value);
    }
  };
  return (
    <div className="grid gap-3 px-4 py-4 sm:grid-cols-2 sm:gap-5 sm:px-6" data-testid={`string-${entry.key}`}>
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2">
          <code className="text-xs break-all text-muted">{entry.key}</code>
          {entry.changed && <span className="rounded-full bg-brand-soft px-2 py-0.5 text-[11px] font-semibold text-brand">{t('admin_language.changed')}</span>}
          {entry.untranslated && <span className="rounded-full bg-surface-2 px-2 py-0.5 text-[11px] font-semibold text-muted">{t('admin_language.untranslated')}</span>}
        </p>
        {language.code !== 'en' && (
          <p className="mt-1.5 text-sm break-words" lang="en" dir="ltr">
            <span className="sr-only">{t('admin_language.english')}: </span>
            {entry.english}
          </p>
        )}
        {entry.placeholders.length > 0 && <p className="mt-1 text-xs text-muted">{t('admin_language.placeholders', { list: entry.placeholders.map((p) => `{${p}}`).join(', ') })}</p>}
      </div>
      <div className="min-w-0">
        <label htmlFor={id} className="sr-only">
          {t('admin_language.text_of', { key: entry.key })}
        </label>
        <textarea
          id={id}
          lang={language.code}
          dir={language.rtl ? 'rtl' : 'ltr'}
          rows={1}
          className="input field-sizing-content min-h-[44px] resize-none py-2 text-sm"
          value={value}
          maxLength={5000}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => onDraft(entry.key, e.target.value)}
          onKeyDown={onKeyDown}
        />
        {error && (
          <p id={`${id}-error`} className="field-error" role="alert">
            {error}
          </p>
        )}
        {(dirty || entry.changed || state?.status === 'saved') && (
        <div className="mt-2 flex flex-wrap items-center justify-end gap-2">
          {state?.status === 'saved' && !dirty && (
            <span className="mr-auto inline-flex items-center gap-1 text-xs font-medium text-success-text" role="status">
              <Check className="size-3.5" aria-hidden />
              {t('admin_language.saved')}
            </span>
          )}
          {entry.changed && !dirty && (
            <button type="button" className="btn-secondary px-2.5 py-1 text-xs" onClick={() => onSave(entry.key, null)} aria-label={t('admin_language.reset_named', { key: entry.key })}>
              <RotateCcw className="size-3.5" aria-hidden />
              {t('admin_language.reset')}
            </button>
          )}
          {dirty && (
            <button type="button" className="btn-primary px-3 py-1 text-xs" disabled={state?.status === 'saving'} onClick={() => onSave(entry.key, value)}>
              {state?.status === 'saving' && <LoaderCircle className="size-3.5 animate-spin" aria-hidden />}
              {t('admin_language.save')}
            </button>
          )}
        </div>
        )}
      </div>
    </div>
  );
}
