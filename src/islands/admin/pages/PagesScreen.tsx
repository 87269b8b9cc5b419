import { FileText, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useTitle } from '../../../components/useTitle.ts';
import { api, ApiError } from '../../../stores/api.ts';
import { formatDateTime } from '../../../stores/dates.ts';
import { useT } from '../../../stores/i18n.ts';
import type { PageResource } from './types.ts';

interface PageList {
  data: PageResource[];
  meta: { next_cursor: string | null };
}

/** /admin/pages: every page of the public site, with where it shows and when it last changed. */
export default function PagesScreen() {
  const t = useT();
  useTitle(t('admin_pages.title'));
  const [pages, setPages] = useState<PageResource[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState('');

  const load = async (cursor: string | null) => {
    const res = await api.get<PageList>(`/api/admin/pages${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
    setPages((shown) => (cursor && shown ? [...shown, ...res.data] : res.data));
    setNext(res.meta.next_cursor);
  };
  const fail = (err: unknown) => setError(err instanceof ApiError ? err.message : String(err));

  useEffect(() => {
    load(null).catch(fail);
  }, []);

  const more = () => {
    setLoadingMore(true);
    load(next)
      .catch(fail)
      .finally(() => setLoadingMore(false));
  };

  return (
    <div>
      <PageHeader
        title={t('admin_pages.title')}
        subtitle={t('admin_pages.subtitle')}
        actions={
          <a href="/admin/pages/new" className="btn-primary">
            <Plus className="size-4" aria-hidden />
            {t('admin_pages.new')}
          </a>
        }
      />
      {error && <p className="notice-danger mb-4">{error}</p>}
      <section className="card overflow-hidden">
        {pages === null && !error && (
          <div className="flex justify-center py-16">
            <Spinner label={t('app.loading')} />
          </div>
        )}
        {pages?.length === 0 && (
          <div className="flex flex-col items-center gap-3 px-6 py-14 text-center">
            <span className="flex size-12 items-center justify-center rounded-2xl bg-surface-2 text-muted">
              <FileText className="size-6" aria-hidden />
            </span>
            <p className="text-sm text-muted">{t('admin_pages.empty')}</p>
          </div>
        )}
        {pages && pages.length > 0 && (
          <table className="w-full text-left text-[15px]">
            <thead className="border-b border-border bg-surface-2/60 text-xs font-semibold tracking-wide text-muted uppercase">
              <tr>
                <th scope="col" className="px-5 py-3 sm:px-6">{t('admin_pages.column_title')}</th>
                <th scope="col" className="hidden px-4 py-3 md:table-cell">{t('admin_pages.column_slug')}</th>
                <th scope="col" className="px-4 py-3">{t('admin_pages.column_footer')}</th>
                <th scope="col" className="hidden px-5 py-3 sm:table-cell sm:px-6">{t('admin_pages.column_updated')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {pages.map((page) => (
                <PageRow key={page.id} page={page} />
              ))}
            </tbody>
          </table>
        )}
      </section>
      {next && (
        <div className="mt-4 flex justify-center">
          <button type="button" className="btn-secondary" onClick={more} disabled={loadingMore}>
            {loadingMore ? t('app.loading') : t('admin_pages.load_more')}
          </button>
        </div>
      )}
    </div>
  );
}

function PageRow({ page }: { page: PageResource }) {
  const t = useT();
  const { slug, title, visible, legal, updated_at } = page.attributes;
  return (
    <tr className="align-middle hover:bg-surface-2/50">
      <td className="px-5 py-3.5 sm:px-6">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <a href={`/admin/pages/${slug}`} className="font-semibold text-text hover:text-brand hover:underline underline-offset-2">
            {title}
          </a>
          {legal && <span className="rounded-full bg-surface-2 px-2 py-0.5 text-xs font-medium text-muted">{t('admin_pages.legal')}</span>}
        </div>
        <p className="mt-0.5 truncate font-mono text-xs text-muted md:hidden">/page/{slug}</p>
      </td>
      <td className="hidden px-4 py-3.5 font-mono text-sm text-muted md:table-cell">/page/{slug}</td>
      <td className="px-4 py-3.5">
        {visible ? (
          <span className="inline-flex items-center gap-1.5 text-sm font-medium text-success-text">
            <span className="size-2 rounded-full bg-success" aria-hidden />
            {t('admin_pages.shown')}
          </span>
        ) : (
          <span className="inline-flex items-center gap-1.5 text-sm text-muted">
            <span className="size-2 rounded-full bg-border" aria-hidden />
            {t('admin_pages.hidden')}
          </span>
        )}
      </td>
      <td className="hidden px-5 py-3.5 text-sm whitespace-nowrap text-muted sm:table-cell sm:px-6">{formatDateTime(updated_at)}</td>
    </tr>
  );
}
