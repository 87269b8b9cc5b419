import { Receipt } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { formatMinor } from '../../../components/billing/money.ts';
import { Spinner } from '../../../components/Spinner.tsx';
import { formatDate } from '../../../stores/dates.ts';
import { useT } from '../../../stores/i18n.ts';
import { listSubscriptions, type Subscription, type SubscriptionState } from '../plans/client.ts';
import { StatusBadge } from '../plans/StatusBadge.tsx';

type List = { rows: Subscription[]; next: string | null };

/**
 * Subscriptions, newest first, 25 at a time: every one (`/admin/subscriptions`, filtered by plan
 * and state) or one plan's subscribers (its subscribers tab, `planId`).
 */
export function SubscriptionList({ planId, plan = null, status = null }: { planId?: string; plan?: string | null; status?: SubscriptionState | null }) {
  const t = useT();
  const [list, setList] = useState<List | null>(null);
  const [loading, setLoading] = useState<'page' | 'more' | null>('page');
  const [error, setError] = useState('');
  const latest = useRef(0);

  const load = (cursor: string | null) => {
    const ticket = ++latest.current;
    setLoading(cursor ? 'more' : 'page');
    setError('');
    listSubscriptions({ plan, status, cursor }, planId).then(
      (page) => {
        if (ticket !== latest.current) return;
        setList((old) => ({ rows: cursor && old ? [...old.rows, ...page.data] : page.data, next: page.meta.next_cursor }));
        setLoading(null);
      },
      (err: unknown) => {
        if (ticket !== latest.current) return;
        setError(err instanceof Error ? err.message : String(err));
        setLoading(null);
      },
    );
  };
  useEffect(() => load(null), [planId, plan, status]);

  return (
    <>
      {error && (
        <p role="alert" className="notice-danger mb-4">
          {error}
        </p>
      )}
      <section className="card overflow-hidden" aria-busy={loading === 'page'}>
        {!list && loading && (
          <div className="flex justify-center py-16">
            <Spinner label={t('app.loading')} />
          </div>
        )}
        {list && list.rows.length === 0 && (
          <div className="flex flex-col items-center gap-3 px-6 py-14 text-center">
            <span className="flex size-12 items-center justify-center rounded-2xl bg-surface-2 text-muted">
              <Receipt className="size-6" aria-hidden />
            </span>
            <p className="max-w-md text-sm text-muted">{planId ? t('billing_plans.no_subscribers') : plan || status ? t('billing_plans.no_subscriptions_match') : t('billing_plans.no_subscriptions')}</p>
          </div>
        )}
        {list && list.rows.length > 0 && <SubscriptionTable rows={list.rows} showPlan={!planId} dimmed={loading === 'page'} />}
      </section>
      {list?.next && (
        <div className="mt-4 flex justify-center">
          <button type="button" className="btn-secondary" disabled={loading !== null} onClick={() => load(list.next)}>
            {loading === 'more' && <Spinner size={16} label={t('app.loading')} />}
            {t('billing_plans.load_more')}
          </button>
        </div>
      )}
    </>
  );
}

function SubscriptionTable({ rows, showPlan, dimmed }: { rows: Subscription[]; showPlan: boolean; dimmed: boolean }) {
  const t = useT();
  const price = (s: Subscription) => (s.attributes.amount_minor === null ? '—' : formatMinor(s.attributes.amount_minor, s.attributes.currency, document.documentElement.lang || undefined));
  return (
    <table className={`w-full text-left text-sm transition-opacity ${dimmed ? 'opacity-60' : ''}`}>
      <caption className="sr-only">{t('billing_plans.subscriptions_title')}</caption>
      <thead className="border-b border-border bg-surface-2/60 text-xs font-semibold tracking-wide whitespace-nowrap text-muted uppercase">
        <tr>
          <th scope="col" className="px-4 py-3 sm:px-6">
            {t('billing_plans.column_subscriber')}
          </th>
          {showPlan && (
            <th scope="col" className="hidden px-4 py-3 sm:table-cell">
              {t('billing_plans.column_plan')}
            </th>
          )}
          <th scope="col" className="hidden px-4 py-3 text-right md:table-cell">
            {t('billing_plans.column_pays')}
          </th>
          <th scope="col" className="hidden px-4 py-3 lg:table-cell">
            {t('billing_plans.column_period_end')}
          </th>
          <th scope="col" className="px-4 py-3 pr-6 text-right">
            {t('billing_plans.column_status')}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-border">
        {rows.map((s) => (
          <tr key={s.id} className="hover:bg-surface-2/50">
            <td className="w-full max-w-0 px-4 py-3 sm:px-6">
              <a href={`/admin/user/${s.relationships.user.id}/subscription`} className="block truncate font-semibold text-text hover:text-brand hover:underline">
                {s.relationships.user.name}
              </a>
              <p className="truncate text-muted">{s.relationships.user.email}</p>
              <p className="mt-0.5 truncate text-xs text-muted md:hidden">
                {showPlan ? `${s.relationships.plan.name} · ` : ''}
                {price(s)} · {t(`billing_plans.driver_${s.attributes.driver}`)}
              </p>
            </td>
            {showPlan && (
              <td className="hidden px-4 py-3 sm:table-cell">
                <a href={`/admin/plan/${s.relationships.plan.id}/${s.relationships.plan.plan_type}/subscribers`} className="link whitespace-nowrap">
                  {s.relationships.plan.name}
                </a>
              </td>
            )}
            <td className="hidden px-4 py-3 text-right whitespace-nowrap tabular-nums md:table-cell">
              {price(s)}
              <span className="block text-xs text-muted">{t(`billing_plans.driver_${s.attributes.driver}`)}</span>
            </td>
            <td className="hidden px-4 py-3 whitespace-nowrap text-muted lg:table-cell">{formatDate(s.attributes.ends_at ?? s.attributes.current_period_end)}</td>
            <td className="px-4 py-3 pr-6 text-right">
              <StatusBadge status={s.attributes.status} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
