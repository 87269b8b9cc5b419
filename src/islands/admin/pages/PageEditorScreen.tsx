import { useStore } from '@nanostores/react';
import { ArrowLeft, ExternalLink, Trash2 } from 'lucide-react';
import { useEffect, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Checkbox } from '../../setup/form.tsx';
import { FormField } from '../../../components/FormField.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useTitle } from '../../../components/useTitle.ts';
import { api, ApiError } from '../../../stores/api.ts';
import { $dialog, openDialog } from '../../../stores/dialogs.ts';
import { useT } from '../../../stores/i18n.ts';
import { $router, openPage, redirectPage } from '../../../stores/router.ts';
import { toast } from '../../../stores/ui.ts';
import { ConfirmDialog } from '../../platform/dialogs/ConfirmDialog.tsx';
import type { AdminScreenProps } from '../screens.ts';
import { MarkdownEditor } from './MarkdownEditor.tsx';
import { slugFromTitle } from './slug.ts';
import { SlugField } from './SlugField.tsx';
import type { PageResource } from './types.ts';

/** The longest Markdown the server takes (src/server/admin/page-schemas.ts). */
const CONTENT_MAX = 100_000;

interface Draft {
  title: string;
  slug: string;
  content: string;
  visible: boolean;
}

const BLANK: Draft = { title: '', slug: '', content: '', visible: true };
const sameDraft = (a: Draft, b: Draft) => a.title === b.title && a.slug === b.slug && a.content === b.content && a.visible === b.visible;

/** /admin/pages/:slug: edits a page of the public site, or creates one at /admin/pages/new. */
export default function PageEditorScreen({ params }: AdminScreenProps) {
  const t = useT();
  const creating = params.slug === 'new';
  const [page, setPage] = useState<PageResource | null>(null);
  const [saved, setSaved] = useState<Draft | null>(creating ? BLANK : null);
  const [draft, setDraft] = useState<Draft>(BLANK);
  const [slugEdited, setSlugEdited] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [loadError, setLoadError] = useState('');
  const [busy, setBusy] = useState(false);
  const dialog = useStore($dialog);
  useTitle(creating ? t('admin_pages.new_title') : (saved?.title ?? t('admin_pages.title')));

  useEffect(() => {
    if (creating) {
      setPage(null);
      setSaved(BLANK);
      setDraft(BLANK);
      return;
    }
    let stale = false;
    api
      .get<{ data: PageResource }>(`/api/admin/pages/${encodeURIComponent(params.slug ?? '')}`)
      .then((res) => {
        if (stale) return;
        const a = res.data.attributes;
        const loaded = { title: a.title, slug: a.slug, content: a.content ?? '', visible: a.visible };
        setPage(res.data);
        setSaved(loaded);
        setDraft(loaded);
      })
      .catch((err: unknown) => !stale && setLoadError(err instanceof ApiError && err.status === 404 ? t('admin_pages.not_found') : String(err instanceof Error ? err.message : err)));
    return () => {
      stale = true;
    };
  }, [params.slug]);

  const dirty = saved !== null && !sameDraft(saved, draft);
  // A reload or closing the tab would lose the text: the browser asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const change = (field: keyof Draft, value: string | boolean) => {
    setDraft((d) => {
      const next = { ...d, [field]: value };
      if (creating && field === 'title' && !slugEdited) next.slug = slugFromTitle(String(value));
      return next;
    });
    if (field === 'slug') setSlugEdited(true);
    if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
  };

  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy || (!creating && !dirty)) return;
    setBusy(true);
    setErrors({});
    try {
      if (creating) {
        const res = await api.post<{ data: PageResource }>('/api/admin/pages', { ...draft });
        setSaved(draft);
        toast('success', t('admin_pages.created'));
        redirectPage($router, 'adminPage', { slug: res.data.attributes.slug });
      } else {
        const body: Record<string, unknown> = { title: draft.title, content: draft.content, visible: draft.visible };
        if (draft.slug !== saved?.slug) body.slug = draft.slug;
        const res = await api.patch<{ data: PageResource }>(`/api/admin/pages/${encodeURIComponent(page!.attributes.slug)}`, body);
        const a = res.data.attributes;
        const now = { title: a.title, slug: a.slug, content: a.content ?? '', visible: a.visible };
        setPage(res.data);
        setSaved(now);
        setDraft(now);
        toast('success', t('admin_pages.saved'));
        if (a.slug !== params.slug) redirectPage($router, 'adminPage', { slug: a.slug });
      }
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.errors).length) {
        setErrors(Object.fromEntries(Object.entries(err.errors).map(([field, messages]) => [field, messages[0] ?? ''])));
      } else {
        setErrors({ _: err instanceof Error ? err.message : String(err) });
      }
    } finally {
      setBusy(false);
    }
  };

  const saveOnShortcut = (event: KeyboardEvent) => {
    if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === 's') {
      event.preventDefault();
      void save();
    }
  };

  const remove = () =>
    openDialog({
      kind: 'confirm',
      title: t('admin_pages.delete_title'),
      message: t('admin_pages.delete_message', { title: page?.attributes.title ?? '' }),
      confirm: t('admin_pages.delete'),
      danger: true,
      run: async () => {
        await api.delete(`/api/admin/pages/${encodeURIComponent(page!.attributes.slug)}`);
        toast('success', t('admin_pages.deleted'));
        openPage($router, 'adminPages');
      },
    });

  const back = (
    <a href="/admin/pages" className="mb-3 inline-flex items-center gap-1.5 rounded-control text-sm font-medium text-muted hover:text-text">
      <ArrowLeft className="size-4" aria-hidden />
      {t('admin_pages.all_pages')}
    </a>
  );

  if (loadError) {
    return (
      <div>
        {back}
        <p className="notice-danger">{loadError}</p>
      </div>
    );
  }
  if (saved === null) {
    return (
      <div>
        {back}
        <div className="flex justify-center py-20">
          <Spinner label={t('app.loading')} />
        </div>
      </div>
    );
  }

  const canChangeSlug = creating || (page?.meta.can_change_slug ?? false);
  return (
    <div>
      {back}
      <PageHeader
        title={creating ? t('admin_pages.new_title') : saved.title}
        subtitle={creating ? t('admin_pages.new_subtitle') : undefined}
        actions={
          !creating &&
          saved.visible && (
            <a href={`/page/${saved.slug}`} target="_blank" rel="noopener" className="btn-secondary">
              <ExternalLink className="size-4" aria-hidden />
              {t('admin_pages.view')}
            </a>
          )
        }
      />
      <form onSubmit={(e) => void save(e)} onKeyDown={saveOnShortcut} noValidate className="flex flex-col gap-6">
        {errors._ && <p className="notice-danger">{errors._}</p>}
        {page?.attributes.legal && <p className="notice border-border bg-surface-2 text-muted">{t('admin_pages.legal_note')}</p>}
        <div className="card grid gap-x-6 p-5 sm:p-6 md:grid-cols-2">
          <FormField label={t('admin_pages.field_title')} name="title" value={draft.title} maxLength={200} onChange={(e) => change('title', e.target.value)} error={errors.title} autoFocus={creating} />
          <SlugField value={draft.slug} onChange={(v) => change('slug', v)} error={errors.slug} readOnly={!canChangeSlug} />
          <div className="md:col-span-2 [&>div]:mb-0">
            <Checkbox label={t('admin_pages.field_visible')} checked={draft.visible} onChange={(v) => change('visible', v)} error={errors.visible} />
            <p className="mt-1 pl-[26px] text-sm text-muted">{t('admin_pages.field_visible_hint')}</p>
          </div>
        </div>
        <MarkdownEditor title={draft.title} value={draft.content} onChange={(v) => change('content', v)} error={errors.content} maxLength={CONTENT_MAX} />
        <div className="flex flex-wrap items-center gap-3 border-t border-border pt-5">
          <button type="submit" className="btn-primary" disabled={busy || (!creating && !dirty)}>
            {creating ? t('admin_pages.create') : t('admin_pages.save')}
          </button>
          <span className="text-sm text-muted" role="status">
            {busy ? t('admin_pages.saving') : dirty && !creating ? t('admin_pages.unsaved') : ''}
          </span>
          {page?.meta.can_delete && (
            <button type="button" className="btn-secondary ml-auto text-danger-text" onClick={remove}>
              <Trash2 className="size-4" aria-hidden />
              {t('admin_pages.delete')}
            </button>
          )}
        </div>
      </form>
      {dialog?.kind === 'confirm' && <ConfirmDialog {...dialog} />}
    </div>
  );
}
