import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { ArrowLeft, Search } from 'lucide-react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { useTitle } from '../../../components/useTitle.ts';
import { ApiError } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import { fetchLanguages, fetchStrings, saveStrings, type AdminLanguage, type StringFilter, type TranslationString } from './api.ts';
import { StringRow, type RowState } from './StringRow.tsx';

const FILTERS: StringFilter[] = ['all', 'changed', 'untranslated'];

interface Listing {
  strings: TranslationString[];
  next: string | null;
  total: number;
}

/**
 * One language's strings (about 700): searched and filtered on the server, paged 100 at a time as
 * the list scrolls, and only the rows on screen rendered. Edits wait in `drafts` until saved, so
 * a row scrolled away and back keeps what was typed.
 */
export function StringEditor({ code }: { code: string }) {
  const t = useT();
  const [language, setLanguage] = useState<AdminLanguage | null | undefined>(undefined);
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState({ search: '', filter: 'all' as StringFilter });
  const [listing, setListing] = useState<Listing | null>(null);
  const [loadError, setLoadError] = useState('');
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [rowStates, setRowStates] = useState<Record<string, RowState>>({});
  const loading = useRef(false);
  const generation = useRef(0);
  useTitle(language ? t('admin_language.strings_title', { name: language.name }) : t('admin_language.title'));

  useEffect(() => {
    fetchLanguages()
      .then((all) => setLanguage(all.find((l) => l.code.toLowerCase() === code.toLowerCase()) ?? null))
      .catch((err: unknown) => setLoadError(err instanceof Error ? err.message : String(err)));
  }, [code]);

  // Typing settles for a moment before the server is asked.
  useEffect(() => {
    const timer = setTimeout(() => setQuery((q) => (q.search === search ? q : { ...q, search })), 250);
    return () => clearTimeout(timer);
  }, [search]);

  const load = useCallback(
    async (cursor: string | null) => {
      if (!language || loading.current) return;
      loading.current = true;
      const mine = ++generation.current;
      try {
        const page = await fetchStrings(language.code, { ...query, cursor });
        if (mine !== generation.current) return;
        setListing((prev) => ({ strings: cursor && prev ? [...prev.strings, ...page.strings] : page.strings, next: page.next, total: page.total }));
        setLoadError('');
      } catch (err) {
        if (mine === generation.current) setLoadError(err instanceof Error ? err.message : String(err));
      } finally {
        loading.current = false;
      }
    },
    [language, query],
  );

  useEffect(() => {
    setListing(null);
    loading.current = false;
    void load(null);
  }, [load]);

  const save = async (key: string, value: string | null) => {
    if (!language) return;
    setRowStates((s) => ({ ...s, [key]: { status: 'saving' } }));
    try {
      const [saved] = await saveStrings(language.code, { [key]: value });
      if (saved) setListing((prev) => prev && { ...prev, strings: prev.strings.map((s) => (s.key === key ? saved : s)) });
      setDrafts(({ [key]: _, ...rest }) => rest);
      setRowStates((s) => ({ ...s, [key]: { status: 'saved' } }));
    } catch (err) {
      const message = err instanceof ApiError ? (Object.values(err.errors)[0]?.[0] ?? err.message) : String(err);
      setRowStates((s) => ({ ...s, [key]: { status: 'error', message } }));
    }
  };

  if (language === null) {
    return (
      <div>
        <BackLink />
        <p className="notice-danger">{t('admin_language.not_found')}</p>
      </div>
    );
  }

  return (
    <div>
      <BackLink />
      <PageHeader title={language ? t('admin_language.strings_title', { name: language.name }) : t('admin_language.title')} subtitle={t('admin_language.strings_subtitle')} />
      <div className="card mb-4 flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
        <div className="relative min-w-0 flex-1">
          <Search className="pointer-events-none absolute start-3 top-1/2 size-4 -translate-y-1/2 text-muted" aria-hidden />
          <input
            type="search"
            className="input ps-9"
            aria-label={t('admin_language.search')}
            placeholder={t('admin_language.search_placeholder')}
            value={search}
            maxLength={200}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div role="group" aria-label={t('admin_language.filter')} className="flex shrink-0 rounded-control border border-border bg-surface-2 p-0.5">
          {FILTERS.map((filter) => (
            <button
              key={filter}
              type="button"
              aria-pressed={query.filter === filter}
              onClick={() => setQuery((q) => ({ ...q, filter }))}
              className={`flex-1 rounded-[calc(var(--radius-control)-2px)] px-3 py-1.5 text-sm font-semibold whitespace-nowrap transition-colors ${
                query.filter === filter ? 'bg-surface text-text shadow-sm' : 'text-muted hover:text-text'
              }`}
            >
              {t(`admin_language.filter_${filter}`)}
            </button>
          ))}
        </div>
      </div>
      {loadError && <p className="notice-danger mb-4">{loadError}</p>}
      {!listing && !loadError && (
        <div className="flex justify-center py-16">
          <Spinner label={t('app.loading')} />
        </div>
      )}
      {listing && language && (
        <>
          <p className="mb-2 text-sm text-muted" role="status" data-testid="strings-count">
            {t('admin_language.count', { count: listing.total })}
          </p>
          {listing.strings.length === 0 ? (
            <p className="card px-6 py-12 text-center text-sm text-muted">{t('admin_language.empty')}</p>
          ) : (
            <StringList
              listing={listing}
              language={language}
              drafts={drafts}
              rowStates={rowStates}
              onDraft={(key, value) => {
                setDrafts((d) => ({ ...d, [key]: value }));
                setRowStates(({ [key]: _, ...rest }) => rest);
              }}
              onSave={(key, value) => void save(key, value)}
              onNearEnd={() => listing.next && void load(listing.next)}
            />
          )}
        </>
      )}
    </div>
  );
}

function BackLink() {
  const t = useT();
  return (
    <a href="/admin/language" className="link mb-3 inline-flex items-center gap-1.5 text-sm">
      <ArrowLeft className="size-4 rtl:rotate-180" aria-hidden />
      {t('admin_language.back')}
    </a>
  );
}

interface ListProps {
  listing: Listing;
  language: AdminLanguage;
  drafts: Record<string, string>;
  rowStates: Record<string, RowState>;
  onDraft: (key: string, value: string) => void;
  onSave: (key: string, value: string | null) => void;
  onNearEnd: () => void;
}

function StringList({ listing, language, drafts, rowStates, onDraft, onSave, onNearEnd }: ListProps) {
  const container = useRef<HTMLUListElement>(null);
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    const el = container.current;
    if (!el) return;
    const measure = () => setOffset(el.getBoundingClientRect().top + window.scrollY);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: listing.strings.length,
    estimateSize: () => 150,
    overscan: 6,
    scrollMargin: offset,
    getItemKey: (index) => listing.strings[index]!.key,
  });
  const rows = virtualizer.getVirtualItems();
  const last = rows.at(-1)?.index ?? 0;
  useEffect(() => {
    if (last >= listing.strings.length - 20) onNearEnd();
  }, [last, listing.strings.length]);

  return (
    <ul ref={container} className="card relative" style={{ height: virtualizer.getTotalSize() }} data-testid="strings">
      {rows.map((row) => {
        const entry = listing.strings[row.index]!;
        return (
          <li
            key={row.key}
            ref={virtualizer.measureElement}
            data-index={row.index}
            className={`absolute inset-x-0 top-0 border-border ${row.index ? 'border-t' : ''}`}
            style={{ transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)` }}
          >
            <StringRow entry={entry} language={language} draft={drafts[entry.key]} state={rowStates[entry.key]} onDraft={onDraft} onSave={onSave} />
          </li>
        );
      })}
    </ul>
  );
}
