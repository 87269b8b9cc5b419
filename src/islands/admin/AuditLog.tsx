import { X } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { Spinner } from '../../components/Spinner.tsx';
import { api } from '../../stores/api.ts';
import { formatDateTime } from '../../stores/dates.ts';
import { useT } from '../../stores/i18n.ts';

interface Entry {
  id: string;
  attributes: {
    actor: { id: string | null; name: string };
    action: string;
    target: { type: string; id: string | null; label: string };
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
    created_at: string;
  };
}
interface Page {
  data: Entry[];
  meta: { next_cursor: string | null };
}
interface Filter {
  actor?: { id: string; name: string };
  target?: { type: string; id: string; label: string };
  target_type?: string;
}

const TARGET_TYPES = ['user', 'page', 'setting', 'language'] as const;

function query(filter: Filter, cursor: string | null): string {
  const params = new URLSearchParams({ limit: '20' });
  if (filter.actor) params.set('actor', filter.actor.id);
  if (filter.target) {
    params.set('target_type', filter.target.type);
    params.set('target_id', filter.target.id);
  } else if (filter.target_type) params.set('target_type', filter.target_type);
  if (cursor) params.set('cursor', cursor);
  return `/api/admin/audit?${params}`;
}

const show = (value: unknown) => (value === null || value === undefined || value === '' ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** What changed, field by field: the fields whose values differ before and after. */
function changes(entry: Entry['attributes']): { field: string; before: unknown; after: unknown }[] {
  const fields = new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})]);
  return [...fields]
    .map((field) => ({ field, before: entry.before?.[field], after: entry.after?.[field] }))
    .filter((c) => JSON.stringify(c.before) !== JSON.stringify(c.after));
}

/** The admin audit log: newest first, paged, filtered by acting admin, by target or by kind of target. */
export function AuditLog() {
  const t = useT();
  const [filter, setFilter] = useState<Filter>({});
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');

  const load = useCallback(async (f: Filter, from: string | null) => {
    setLoading(true);
    setError('');
    try {
      const page = await api.get<Page>(query(f, from));
      setEntries((prev) => (from && prev ? [...prev, ...page.data] : page.data));
      setCursor(page.meta.next_cursor);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load(filter, null);
  }, [filter, load]);

  const actionLabel = (action: string) => {
    const key = `admin_audit.action_${action.replace(/[.-]/g, '_')}`;
    const label = t(key);
    return label === key ? action : label;
  };

  return (
    <section className="card" aria-labelledby="audit-title">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-border px-6 py-4">
        <h2 id="audit-title" className="text-lg font-bold">{t('admin_audit.title')}</h2>
        <label className="flex items-center gap-2 text-sm">
          <span className="text-muted">{t('admin_audit.kind')}</span>
          <select
            className="input w-auto py-1.5"
            value={filter.target ? filter.target.type : (filter.target_type ?? '')}
            onChange={(e) => setFilter((f) => ({ actor: f.actor, target_type: e.target.value || undefined }))}
          >
            <option value="">{t('admin_audit.kind_all')}</option>
            {TARGET_TYPES.map((type) => (
              <option key={type} value={type}>{t(`admin_audit.kind_${type}`)}</option>
            ))}
          </select>
        </label>
      </div>
      {(filter.actor || filter.target) && (
        <div className="flex flex-wrap gap-2 border-b border-border px-6 py-3">
          {filter.actor && (
            <FilterChip label={t('admin_audit.by', { name: filter.actor.name })} clear={t('admin_audit.clear_filter')} onClear={() => setFilter((f) => ({ ...f, actor: undefined }))} />
          )}
          {filter.target && (
            <FilterChip label={t('admin_audit.about', { name: filter.target.label || filter.target.id })} clear={t('admin_audit.clear_filter')} onClear={() => setFilter((f) => ({ ...f, target: undefined }))} />
          )}
        </div>
      )}
      {error && <p className="notice-danger m-6">{error}</p>}
      {!entries && !error && (
        <div className="flex justify-center py-10">
          <Spinner label={t('app.loading')} />
        </div>
      )}
      {entries && entries.length === 0 && <p className="px-6 py-10 text-center text-sm text-muted">{t('admin_audit.empty')}</p>}
      {entries && entries.length > 0 && (
        <ol className="divide-y divide-border">
          {entries.map((entry) => {
            const a = entry.attributes;
            const diff = changes(a);
            return (
              <li key={entry.id} className="px-6 py-3 text-sm">
                <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                  {a.actor.id ? (
                    <button type="button" className="link" onClick={() => setFilter((f) => ({ ...f, actor: { id: a.actor.id!, name: a.actor.name } }))}>
                      {a.actor.name}
                    </button>
                  ) : (
                    <span className="font-medium">{a.actor.name}</span>
                  )}
                  <span>{actionLabel(a.action)}</span>
                  {a.target.id ? (
                    <button
                      type="button"
                      className="link max-w-full truncate"
                      onClick={() => setFilter((f) => ({ actor: f.actor, target: { type: a.target.type, id: a.target.id!, label: a.target.label } }))}
                    >
                      {a.target.label || a.target.id}
                    </button>
                  ) : (
                    a.target.label && <span className="font-medium">{a.target.label}</span>
                  )}
                  <time className="ml-auto text-xs text-muted" dateTime={a.created_at}>{formatDateTime(a.created_at)}</time>
                </div>
                {diff.length > 0 && (
                  <dl className="mt-1.5 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-muted">
                    {diff.slice(0, 6).map((c) => (
                      <div key={c.field} className="contents">
                        <dt className="font-mono">{c.field}</dt>
                        <dd className="min-w-0 truncate">
                          <span className="line-through decoration-muted/60">{show(c.before)}</span> → <span className="text-text">{show(c.after)}</span>
                        </dd>
                      </div>
                    ))}
                  </dl>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {cursor && (
        <div className="border-t border-border px-6 py-3 text-center">
          <button type="button" className="btn-secondary" disabled={loading} onClick={() => void load(filter, cursor)}>
            {loading ? t('app.loading') : t('admin_audit.more')}
          </button>
        </div>
      )}
    </section>
  );
}

function FilterChip({ label, clear, onClear }: { label: string; clear: string; onClear: () => void }) {
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-brand-soft py-1 pr-1 pl-3 text-xs font-semibold text-brand">
      {label}
      <button type="button" onClick={onClear} aria-label={`${clear}: ${label}`} className="rounded-full p-0.5 hover:bg-brand/15">
        <X size={14} aria-hidden />
      </button>
    </span>
  );
}
