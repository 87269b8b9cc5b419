import { Gauge, Layers, Plus } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { LoadFailedCard, LoadingCard } from '../../../components/LoadStates.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useTitle } from '../../../components/useTitle.ts';
import { useT } from '../../../stores/i18n.ts';
import { listPlans, type Plan } from './client.ts';
import { planFacts, priceText } from './planText.ts';
import { StatusBadge } from './StatusBadge.tsx';

type State = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; plans: Plan[] };

/** /admin/plans: every fixed and metered plan with its price, status and subscribers. */
export default function PlansScreen() {
  const t = useT();
  useTitle(t('billing_plans.title'));
  const [state, setState] = useState<State>({ status: 'loading' });
  const load = useCallback(() => {
    setState({ status: 'loading' });
    listPlans().then(
      (res) => setState({ status: 'ready', plans: res.data }),
      (error: unknown) => setState({ status: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
  }, []);
  useEffect(load, [load]);

  return (
    <div>
      <PageHeader
        title={t('billing_plans.title')}
        subtitle={t('billing_plans.subtitle')}
        actions={
          <div className="flex flex-wrap gap-2">
            <a href="/admin/plan/create/fixed" className="btn-primary">
              <Plus className="size-4" aria-hidden />
              {t('billing_plans.create_fixed')}
            </a>
            <a href="/admin/plan/create/metered" className="btn-secondary">
              <Plus className="size-4" aria-hidden />
              {t('billing_plans.create_metered')}
            </a>
          </div>
        }
      />
      {state.status === 'loading' && <LoadingCard />}
      {state.status === 'error' && <LoadFailedCard title={t('billing_plans.load_failed')} detail={state.message} retryLabel={t('billing_plans.retry')} onRetry={load} />}
      {state.status === 'ready' && state.plans.length === 0 && (
        <section className="card flex flex-col items-center gap-3 px-6 py-14 text-center">
          <span className="flex size-12 items-center justify-center rounded-2xl bg-surface-2 text-muted">
            <Layers className="size-6" aria-hidden />
          </span>
          <h2 className="font-semibold">{t('billing_plans.empty_title')}</h2>
          <p className="max-w-md text-sm text-muted">{t('billing_plans.empty_text')}</p>
        </section>
      )}
      {state.status === 'ready' && state.plans.length > 0 && (
        <section className="card overflow-hidden">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t('billing_plans.title')}</caption>
            <thead className="border-b border-border bg-surface-2/60 text-xs font-semibold tracking-wide whitespace-nowrap text-muted uppercase">
              <tr>
                <th scope="col" className="px-4 py-3 sm:px-6">
                  {t('billing_plans.column_plan')}
                </th>
                <th scope="col" className="hidden px-4 py-3 sm:table-cell">
                  {t('billing_plans.column_price')}
                </th>
                <th scope="col" className="hidden px-4 py-3 text-right md:table-cell">
                  {t('billing_plans.column_subscribers')}
                </th>
                <th scope="col" className="px-4 py-3 pr-6 text-right">
                  {t('billing_plans.column_status')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {state.plans.map((plan) => (
                <PlanRow key={plan.id} plan={plan} />
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}

function PlanRow({ plan }: { plan: Plan }) {
  const t = useT();
  const a = plan.attributes;
  const Icon = a.plan_type === 'fixed' ? Layers : Gauge;
  return (
    <tr className="hover:bg-surface-2/50">
      <td className="w-full max-w-0 px-4 py-3 sm:px-6">
        <div className="flex min-w-0 items-center gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-control bg-brand-soft text-brand">
            <Icon className="size-5" aria-hidden />
          </span>
          <div className="min-w-0 flex-1">
            <a href={`/admin/plan/${plan.id}/${a.plan_type}/subscribers`} className="block truncate font-semibold text-text hover:text-brand hover:underline">
              {a.name}
            </a>
            <p className="truncate text-muted">
              {t(`billing_plans.type_${a.plan_type}`)} · {planFacts(plan, t).join(' · ')}
            </p>
            <p className="mt-0.5 truncate text-xs text-muted sm:hidden">{priceText(plan, t)}</p>
          </div>
        </div>
      </td>
      <td className="hidden px-4 py-3 whitespace-nowrap tabular-nums sm:table-cell">{priceText(plan, t)}</td>
      <td className="hidden px-4 py-3 text-right tabular-nums md:table-cell">{a.subscriber_count}</td>
      <td className="px-4 py-3 pr-6 text-right">
        <StatusBadge status={a.status} />
      </td>
    </tr>
  );
}
