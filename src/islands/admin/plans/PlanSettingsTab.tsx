import { CheckboxField } from '../../../components/CheckboxField.tsx';
import { ApiError } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';
import { updatePlan, type Plan } from './client.ts';
import { PlanForm } from './PlanForm.tsx';
import { useState } from 'react';

/**
 * The settings tab: the plan's fields and its status. A new price applies to new subscribers;
 * existing ones keep what they pay until renewal (the note says so).
 */
export function PlanSettingsTab({ plan, onChanged }: { plan: Plan; onChanged: (plan: Plan) => void }) {
  const t = useT();
  const [archived, setArchived] = useState(plan.attributes.status === 'archived');
  return (
    <>
      {plan.attributes.subscriber_count > 0 && <p className="notice mb-4 max-w-2xl border-border bg-surface-2 text-muted">{t('billing_plans.price_change_note', { count: plan.attributes.subscriber_count })}</p>}
      <PlanForm
        key={plan.attributes.updated_at}
        type={plan.attributes.plan_type}
        plan={plan}
        submitLabel={t('billing_plans.save')}
        extra={<CheckboxField label={t('billing_plans.archived')} hint={t('billing_plans.archived_hint')} checked={archived} onChange={setArchived} />}
        onSubmit={async (fields) => {
          try {
            const saved = await updatePlan(plan.id, { ...fields, status: archived ? 'archived' : 'active' });
            toast('success', t('billing_plans.saved'));
            onChanged(saved.data);
            return null;
          } catch (error) {
            if (error instanceof ApiError && error.status === 422) return Object.keys(error.errors).length ? error.errors : { _: [error.message] };
            toast('danger', error instanceof Error ? error.message : String(error));
            return null;
          }
        }}
      />
    </>
  );
}
