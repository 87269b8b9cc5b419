import { useEffect, useId, useRef, useState, type FormEvent, type InputHTMLAttributes } from 'react';
import { ApiError } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import { $router, openPage } from '../../../stores/router.ts';
import { toast } from '../../../stores/ui.ts';
import { createLanguage } from './api.ts';

/** The add-a-language form: code, name and direction; the new language opens in the string editor. */
export function AddLanguageForm({ onClose }: { onClose: () => void }) {
  const t = useT();
  const headingId = useId();
  const rtlId = useId();
  const form = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => form.current?.querySelector('input')?.focus(), []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setBusy(true);
    setErrors({});
    try {
      const language = await createLanguage({ code: String(data.get('code') ?? ''), name: String(data.get('name') ?? ''), rtl: data.get('rtl') === 'on' });
      toast('success', t('admin_language.created', { name: language.name }));
      openPage($router, 'adminLanguage', { code: language.code });
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.errors).length) setErrors(Object.fromEntries(Object.entries(err.errors).map(([field, messages]) => [field, messages[0] ?? ''])));
      else setErrors({ _: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={form} className="card mb-6 p-6" aria-labelledby={headingId} onSubmit={(e) => void submit(e)} noValidate>
      <h2 id={headingId} className="text-lg font-bold">
        {t('admin_language.add_title')}
      </h2>
      <p className="mt-1 mb-5 text-sm text-muted">{t('admin_language.add_text')}</p>
      {errors._ && <p className="notice-danger mb-4">{errors._}</p>}
      <div className="mb-5 grid gap-5 sm:grid-cols-2">
        <Field label={t('admin_language.code')} hint={t('admin_language.code_hint')} error={errors.code} name="code" maxLength={35} spellCheck={false} placeholder="fr" />
        <Field label={t('admin_language.name')} hint={t('admin_language.name_hint')} error={errors.name} name="name" maxLength={60} placeholder="Français" />
      </div>
      <div className="flex items-center gap-2.5">
        <input id={rtlId} type="checkbox" name="rtl" className="size-4 accent-brand" />
        <label htmlFor={rtlId} className="text-sm font-medium">
          {t('admin_language.rtl')}
        </label>
      </div>
      <div className="mt-6 flex justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={onClose}>
          {t('admin_language.cancel')}
        </button>
        <button type="submit" className="btn-primary" disabled={busy}>
          {t('admin_language.create')}
        </button>
      </div>
    </form>
  );
}

/** A labelled input with a hint under it, replaced by the field's error when there is one. */
function Field({ label, hint, error, ...input }: { label: string; hint: string; error: string | undefined } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="input" autoComplete="off" aria-invalid={error ? true : undefined} aria-describedby={`${id}-note`} {...input} />
      <p id={`${id}-note`} className={error ? 'field-error' : 'mt-1.5 text-xs text-muted'}>
        {error ?? hint}
      </p>
    </div>
  );
}
