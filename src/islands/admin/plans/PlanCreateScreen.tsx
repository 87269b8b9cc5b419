import { ArrowLeft } from 'lucide-react';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useTitle } from '../../../components/useTitle.ts';
import { ApiError } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import { $router, openPage } from '../../../stores/router.ts';
import { toast } from '../../../stores/ui.ts';
import type { AdminScreenProps } from '../screens.ts';
import { createPlan, type PlanType } from './client.ts';
import { PlanForm } from './PlanForm.tsx';

/** /admin/plan/create/fixed and /admin/plan/create/metered: a new plan, active at once. */
export default function PlanCreateScreen({ params }: AdminScreenProps) {
  const t = useT();
  const type: PlanType = params.type === 'metered' ? 'metered' : 'fixed';
  useTitle(t(`billing_plans.create_${type}`));
  return (
    <div>
      <a href="/admin/plans" className="link mb-3 inline-flex items-center gap-1.5 text-sm">
        <ArrowLeft className="size-4" aria-hidden />
        {t('billing_plans.back_to_plans')}
      </a>
      <PageHeader title={t(`billing_plans.create_${type}`)} subtitle={t(`billing_plans.create_${type}_text`)} />
      <PlanForm
        key={type}
        type={type}
        plan={null}
        submitLabel={t('billing_plans.create_submit')}
        onSubmit={async (fields) => {
          try {
            const created = await createPlan(type, fields);
            toast('success', t('billing_plans.created'));
            openPage($router, 'adminPlan', { id: created.data.id, type, tab: 'settings' });
            return null;
          } catch (error) {
            if (error instanceof ApiError && error.status === 422) return Object.keys(error.errors).length ? error.errors : { _: [error.message] };
            toast('danger', error instanceof Error ? error.message : String(error));
            return null;
          }
        }}
      />
    </div>
  );
}
