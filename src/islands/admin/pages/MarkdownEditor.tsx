import { Eye, Pencil } from 'lucide-react';
import { useId, useState, type MouseEvent } from 'react';
import { Spinner } from '../../../components/Spinner.tsx';
import { useT } from '../../../stores/i18n.ts';
import { usePreview } from './usePreview.ts';

type Pane = 'write' | 'preview';

/**
 * The page's Markdown beside its live preview on large screens; on narrower ones a Write/Preview
 * switch shows one at a time. The preview is drawn exactly as the public page draws it: the server's
 * HTML inside the same `prose-page` article, under the same heading.
 */
export function MarkdownEditor({ title, value, onChange, error, maxLength }: { title: string; value: string; onChange: (v: string) => void; error?: string | undefined; maxLength: number }) {
  const t = useT();
  const id = useId();
  const [pane, setPane] = useState<Pane>('write');
  const preview = usePreview(value);

  const tab = (which: Pane, label: string, Icon: typeof Eye) => (
    <button
      type="button"
      role="tab"
      id={`${id}-tab-${which}`}
      aria-selected={pane === which}
      aria-controls={`${id}-${which}`}
      onClick={() => setPane(which)}
      className={`inline-flex flex-1 items-center justify-center gap-2 rounded-[8px] px-3 py-1.5 text-sm font-semibold transition-colors ${
        pane === which ? 'bg-surface text-text shadow-sm' : 'text-muted hover:text-text'
      }`}
    >
      <Icon className="size-4" aria-hidden />
      {label}
    </button>
  );

  return (
    <div>
      <div role="tablist" aria-label={t('admin_pages.editor_view')} className="mb-3 flex gap-1 rounded-control bg-surface-2 p-1 lg:hidden">
        {tab('write', t('admin_pages.write'), Pencil)}
        {tab('preview', t('admin_pages.preview'), Eye)}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <div id={`${id}-write`} className={pane === 'write' ? 'flex flex-col' : 'hidden lg:flex lg:flex-col'}>
          <label className="label" htmlFor={`${id}-content`}>
            {t('admin_pages.content')}
          </label>
          <textarea
            id={`${id}-content`}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            maxLength={maxLength}
            spellCheck
            aria-invalid={error ? true : undefined}
            aria-describedby={`${error ? `${id}-error ` : ''}${id}-hint`}
            className="input min-h-[24rem] flex-1 resize-y font-mono text-sm leading-6 [field-sizing:content] lg:min-h-[32rem]"
          />
          <p id={`${id}-hint`} className="mt-1.5 text-xs text-muted">
            {t('admin_pages.markdown_hint')}
          </p>
          {error && (
            <p id={`${id}-error`} className="field-error">
              {error}
            </p>
          )}
        </div>
        <section id={`${id}-preview`} aria-labelledby={`${id}-preview-label`} className={pane === 'preview' ? 'flex flex-col' : 'hidden lg:flex lg:flex-col'}>
          <div className="mb-1.5 flex items-baseline justify-between gap-3 max-lg:sr-only">
            <h2 id={`${id}-preview-label`} className="label mb-0">
              {t('admin_pages.preview')}
            </h2>
            <span className="text-xs text-muted" aria-hidden={!preview.updating}>
              {preview.updating && preview.html !== null ? t('admin_pages.preview_updating') : ''}
            </span>
          </div>
          <div className="card min-h-[24rem] flex-1 overflow-auto px-5 py-6 sm:px-8 lg:min-h-[32rem]" data-testid="page-preview">
            {preview.error && <p className="notice-danger mb-4">{preview.error}</p>}
            {preview.html === null && !preview.error ? (
              <div className="flex justify-center py-16">
                <Spinner label={t('app.loading')} />
              </div>
            ) : (
              <>
                <h1 className="text-3xl font-extrabold tracking-tight break-words">{title || t('admin_pages.untitled')}</h1>
                {preview.html === '' ? (
                  <p className="mt-6 text-sm text-muted italic">{t('admin_pages.preview_empty')}</p>
                ) : (
                  // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's renderer escapes raw HTML and drops unsafe links: the same HTML /page/:slug serves.
                  <article className="prose-page mt-6" onClickCapture={openLinksAside} dangerouslySetInnerHTML={{ __html: preview.html ?? '' }} />
                )}
              </>
            )}
          </div>
        </section>
      </div>
    </div>
  );
}

/** A link in the preview opens in a new tab, so following it does not leave unsaved text behind. */
function openLinksAside(event: MouseEvent<HTMLElement>) {
  const link = (event.target as HTMLElement).closest('a');
  if (!link) return;
  event.preventDefault();
  event.stopPropagation();
  window.open(link.href, '_blank', 'noopener,noreferrer');
}
