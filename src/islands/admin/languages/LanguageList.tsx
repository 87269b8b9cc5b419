import { Languages, Plus } from 'lucide-react';
import { AlertDialog } from 'radix-ui';
import { useEffect, useState } from 'react';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useTitle } from '../../../components/useTitle.ts';
import { ApiError } from '../../../stores/api.ts';
import { useT, type Translate } from '../../../stores/i18n.ts';
import { showAlert, toast } from '../../../stores/ui.ts';
import { AddLanguageForm } from './AddLanguageForm.tsx';
import { deleteLanguage, fetchLanguages, updateLanguage, type AdminLanguage } from './api.ts';

/** Every language with its progress; add one, make one the default, delete an added one. */
export function LanguageList() {
  const t = useT();
  useTitle(t('admin_language.title'));
  const [languages, setLanguages] = useState<AdminLanguage[] | null>(null);
  const [error, setError] = useState('');
  const [adding, setAdding] = useState(false);

  const reload = () =>
    fetchLanguages()
      .then(setLanguages)
      .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  useEffect(() => void reload(), []);

  const failed = (err: unknown) => showAlert({ title: t('popup_error.title'), message: err instanceof ApiError ? err.message : t('popup_error.message') });
  const makeDefault = async (language: AdminLanguage) => {
    try {
      await updateLanguage(language.code, { default: true });
      toast('success', t('admin_language.default_set', { name: language.name }));
      await reload();
    } catch (err) {
      failed(err);
    }
  };
  const remove = async (language: AdminLanguage) => {
    try {
      await deleteLanguage(language.code);
      toast('success', t('admin_language.deleted', { name: language.name }));
      await reload();
    } catch (err) {
      failed(err);
    }
  };

  return (
    <div>
      <PageHeader
        title={t('admin_language.title')}
        subtitle={t('admin_language.subtitle')}
        actions={
          !adding && (
            <button type="button" className="btn-primary" onClick={() => setAdding(true)}>
              <Plus className="size-4" aria-hidden />
              {t('admin_language.add')}
            </button>
          )
        }
      />
      {adding && <AddLanguageForm onClose={() => setAdding(false)} />}
      {error && <p className="notice-danger">{error}</p>}
      {!languages && !error && (
        <div className="flex justify-center py-16">
          <Spinner label={t('app.loading')} />
        </div>
      )}
      {languages && (
        <ul className="card divide-y divide-border" aria-label={t('admin_language.title')}>
          {languages.map((language) => (
            <li key={language.code} className="flex flex-wrap items-center gap-x-4 gap-y-3 px-5 py-4 sm:px-6" data-testid={`language-${language.code}`}>
              <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-soft text-brand" aria-hidden>
                <Languages className="size-5" />
              </span>
              <div className="min-w-0 flex-1">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold" lang={language.code} dir={language.rtl ? 'rtl' : 'ltr'}>
                    {language.name}
                  </span>
                  <code className="rounded-md bg-surface-2 px-1.5 py-0.5 text-xs text-muted">{language.code}</code>
                  {language.default && <Badge tone="brand">{t('admin_language.default')}</Badge>}
                  {language.built_in && <Badge>{t('admin_language.built_in')}</Badge>}
                  {language.rtl && <Badge>{t('admin_language.rtl_badge')}</Badge>}
                </p>
                <p className="mt-0.5 text-sm text-muted">{progressText(t, language)}</p>
              </div>
              <div className="flex w-full flex-wrap gap-2 ps-14 sm:w-auto sm:ps-0">
                <a className="btn-secondary px-3 py-1.5 text-sm" href={`/admin/language/${encodeURIComponent(language.code)}`} aria-label={t('admin_language.edit_strings_named', { name: language.name })}>
                  {t('admin_language.edit_strings')}
                </a>
                {!language.default && (
                  <button type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={() => void makeDefault(language)} aria-label={t('admin_language.make_default_named', { name: language.name })}>
                    {t('admin_language.make_default')}
                  </button>
                )}
                {!language.built_in && !language.default && <DeleteButton language={language} onConfirm={() => void remove(language)} />}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function progressText(t: Translate, language: AdminLanguage): string {
  if (!language.built_in) return t('admin_language.progress', { done: language.strings - language.untranslated, total: language.strings });
  const parts = [];
  if (language.changed) parts.push(t('admin_language.changed_count', { count: language.changed }));
  if (language.untranslated) parts.push(t('admin_language.untranslated_count', { count: language.untranslated }));
  return parts.length ? parts.join(' · ') : t('admin_language.no_changes');
}

function Badge({ children, tone }: { children: string; tone?: 'brand' }) {
  const colours = tone === 'brand' ? 'bg-brand-soft text-brand' : 'bg-surface-2 text-muted';
  return <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${colours}`}>{children}</span>;
}

function DeleteButton({ language, onConfirm }: { language: AdminLanguage; onConfirm: () => void }) {
  const t = useT();
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>
        <button type="button" className="btn-secondary px-3 py-1.5 text-sm text-danger" aria-label={t('admin_language.delete_named', { name: language.name })}>
          {t('admin_language.delete')}
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-backdrop" />
        <AlertDialog.Content className="card fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 p-6 md:w-[440px]">
          <AlertDialog.Title className="text-xl font-bold tracking-tight">{t('admin_language.delete_title', { name: language.name })}</AlertDialog.Title>
          <AlertDialog.Description className="mt-1.5 text-[15px] text-muted">{t('admin_language.delete_text')}</AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-2">
            <AlertDialog.Cancel className="btn-secondary">{t('admin_language.cancel')}</AlertDialog.Cancel>
            <AlertDialog.Action className="btn-danger" onClick={onConfirm}>
              {t('admin_language.delete')}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
