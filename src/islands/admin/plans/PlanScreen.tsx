import { ArrowLeft, Layers } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { LoadFailedCard, LoadingCard } from '../../../components/LoadStates.tsx';
import { useTitle } from '../../../components/useTitle.ts';
import { ApiError } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import { $router, redirectPage } from '../../../stores/router.ts';
import { SubscriptionList } from '../subscriptions/SubscriptionList.tsx';
import type { AdminScreenProps } from '../screens.ts';
import { getPlan, type Plan } from './client.ts';
import { PlanDeleteTab } from './PlanDeleteTab.tsx';
import { PlanSettingsTab } from './PlanSettingsTab.tsx';
import { planFacts, priceText } from './planText.ts';
import { StatusBadge } from './StatusBadge.tsx';

export const PLAN_TABS = ['subscribers', 'settings', 'delete'] as const;
type Tab = (typeof PLAN_TABS)[number];

type State = { status: 'loading' } | { status: 'missing' } | { status: 'error'; message: string } | { status: 'ready'; plan: Plan };

/** /admin/plan/:id/{fixed|metered}/{subscribers,settings,delete}: one plan and what an admin does to it. */
export default function PlanScreen({ params }: AdminScreenProps) {
  const t = useT();
  const id = params.id ?? '';
  const tab = (params.tab || 'subscribers') as Tab;
  const [state, setState] = useState<State>({ status: 'loading' });
  const plan = state.status === 'ready' ? state.plan : null;
  useTitle(plan ? plan.attributes.name : t('billing_plans.title'));

  const load = useCallback(() => {
    setState({ status: 'loading' });
    getPlan(id).then(
      (res) => setState({ status: 'ready', plan: res.data }),
      (error: unknown) => setState(error instanceof ApiError && error.status === 404 ? { status: 'missing' } : { status: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
  }, [id]);
  useEffect(load, [load]);
  // An address with the other plan type (an old link) is corrected to the plan's own.
  const planType = plan?.attributes.plan_type;
  useEffect(() => {
    if (planType && params.type !== planType) redirectPage($router, 'adminPlan', { id, type: planType, ...(params.tab ? { tab: params.tab } : {}) });
  }, [planType, params.type, params.tab, id]);

  return (
    <div>
      <a href="/admin/plans" className="link mb-3 inline-flex items-center gap-1.5 text-sm">
        <ArrowLeft className="size-4" aria-hidden />
        {t('billing_plans.back_to_plans')}
      </a>
      {state.status === 'loading' && <LoadingCard />}
      {state.status === 'error' && <LoadFailedCard title={t('billing_plans.load_failed')} detail={state.message} retryLabel={t('billing_plans.retry')} onRetry={load} />}
      {state.status === 'missing' && (
        <div className="card flex flex-col items-center gap-3 px-6 py-14 text-center">
          <span className="flex size-12 items-center justify-center rounded-2xl bg-surface-2 text-muted">
            <Layers className="size-6" aria-hidden />
          </span>
          <h1 className="text-lg font-bold">{t('billing_plans.missing')}</h1>
          <p className="text-sm text-muted">{t('billing_plans.missing_text')}</p>
        </div>
      )}
      {plan && (
        <>
          <header className="mb-5 min-w-0">
            <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
              <h1 className="truncate text-2xl font-bold tracking-tight">{plan.attributes.name}</h1>
              <StatusBadge status={plan.attributes.status} />
            </div>
            <p className="text-[15px] text-muted">
              {t(`billing_plans.type_${plan.attributes.plan_type}`)} · {priceText(plan, t)} · {planFacts(plan, t).join(' · ')}
            </p>
          </header>
          <nav aria-label={t('billing_plans.plan_sections')} className="mb-6 flex w-fit max-w-full gap-1 overflow-x-auto rounded-control bg-surface-2 p-1">
            {PLAN_TABS.map((name) => (
              <a
                key={name}
                href={`/admin/plan/${id}/${plan.attributes.plan_type}/${name}`}
                aria-current={tab === name ? 'page' : undefined}
                className={`shrink-0 rounded-lg px-3 py-1.5 text-sm font-semibold whitespace-nowrap transition-colors ${
                  tab === name ? 'bg-surface text-text shadow-sm' : 'text-muted hover:text-text'
                } ${name === 'delete' && tab !== name ? 'hover:text-danger' : ''}`}
              >
                {t(`billing_plans.tab_${name}`)}
              </a>
            ))}
          </nav>
          {tab === 'subscribers' && <SubscriptionList planId={plan.id} />}
          {tab === 'settings' && <PlanSettingsTab plan={plan} onChanged={(changed) => setState({ status: 'ready', plan: changed })} />}
          {tab === 'delete' && <PlanDeleteTab plan={plan} onChanged={(changed) => setState({ status: 'ready', plan: changed })} />}
        </>
      )}
    </div>
  );
}
