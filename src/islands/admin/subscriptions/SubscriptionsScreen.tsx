import { useEffect, useId, useState } from 'react';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useTitle } from '../../../components/useTitle.ts';
import { useT } from '../../../stores/i18n.ts';
import { listPlans, type Plan, type SubscriptionState } from '../plans/client.ts';
import { SubscriptionList } from './SubscriptionList.tsx';

const STATES: SubscriptionState[] = ['active', 'cancelled', 'completed'];

/** /admin/subscriptions: every subscription, filtered by plan and state. */
export default function SubscriptionsScreen() {
  const t = useT();
  useTitle(t('billing_plans.subscriptions_title'));
  const [plans, setPlans] = useState<Plan[]>([]);
  const [plan, setPlan] = useState('');
  const [status, setStatus] = useState<SubscriptionState | ''>('');
  const planId = useId();
  const statusId = useId();
  useEffect(() => {
    listPlans().then(
      (res) => setPlans(res.data),
      () => undefined,
    );
  }, []);

  return (
    <div>
      <PageHeader title={t('billing_plans.subscriptions_title')} subtitle={t('billing_plans.subscriptions_subtitle')} />
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <div className="min-w-48 flex-1 sm:flex-none">
          <label className="label" htmlFor={planId}>
            {t('billing_plans.filter_plan')}
          </label>
          <select id={planId} className="input pr-8" value={plan} onChange={(e) => setPlan(e.target.value)}>
            <option value="">{t('billing_plans.filter_all_plans')}</option>
            {plans.map((p) => (
              <option key={p.id} value={p.id}>
                {p.attributes.name}
              </option>
            ))}
          </select>
        </div>
        <div className="min-w-40 flex-1 sm:flex-none">
          <label className="label" htmlFor={statusId}>
            {t('billing_plans.filter_status')}
          </label>
          <select id={statusId} className="input pr-8" value={status} onChange={(e) => setStatus(e.target.value as SubscriptionState | '')}>
            <option value="">{t('billing_plans.filter_all_states')}</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {t(`billing_plans.status_${s}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <SubscriptionList plan={plan || null} status={status || null} />
    </div>
  );
}
