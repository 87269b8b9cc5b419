import { Archive, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Spinner } from '../../../components/Spinner.tsx';
import { ApiError } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import { $router, openPage } from '../../../stores/router.ts';
import { toast } from '../../../stores/ui.ts';
import { deletePlan, updatePlan, type Plan } from './client.ts';

/**
 * The delete tab: a plan nobody subscribed to is deleted for good; one with subscribers is refused
 * by the server (they keep their plan), and archiving is offered instead.
 */
export function PlanDeleteTab({ plan, onChanged }: { plan: Plan; onChanged: (plan: Plan) => void }) {
  const t = useT();
  const [busy, setBusy] = useState<'delete' | 'archive' | null>(null);
  const [refusal, setRefusal] = useState(plan.attributes.subscriber_count > 0 ? t('billing_plans.delete_has_subscribers', { count: plan.attributes.subscriber_count }) : '');
  const archived = plan.attributes.status === 'archived';

  const remove = async () => {
    setBusy('delete');
    try {
      await deletePlan(plan.id);
      toast('success', t('billing_plans.deleted', { name: plan.attributes.name }));
      openPage($router, 'adminPlans');
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) setRefusal(error.message);
      else toast('danger', error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(null);
    }
  };
  const archive = async () => {
    setBusy('archive');
    try {
      const saved = await updatePlan(plan.id, { status: 'archived' });
      toast('success', t('billing_plans.archived_done'));
      onChanged(saved.data);
    } catch (error) {
      toast('danger', error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="card max-w-2xl p-6">
      <h2 className="text-lg font-bold">{t('billing_plans.delete_title')}</h2>
      <p className="mt-1 text-[15px] text-muted">{t('billing_plans.delete_text')}</p>
      {refusal && (
        <p role="alert" className="notice-danger mt-4">
          {refusal}
        </p>
      )}
      <div className="mt-5 flex flex-wrap gap-3">
        {!refusal && (
          <button type="button" className="btn-danger" disabled={busy !== null} onClick={() => void remove()}>
            {busy === 'delete' ? <Spinner size={16} label={t('app.loading')} /> : <Trash2 className="size-4" aria-hidden />}
            {t('billing_plans.delete_button')}
          </button>
        )}
        {refusal && !archived && (
          <button type="button" className="btn-primary" disabled={busy !== null} onClick={() => void archive()}>
            {busy === 'archive' ? <Spinner size={16} label={t('app.loading')} /> : <Archive className="size-4" aria-hidden />}
            {t('billing_plans.archive_instead')}
          </button>
        )}
        {refusal && archived && <p className="text-sm text-muted">{t('billing_plans.already_archived')}</p>}
      </div>
    </section>
  );
}
