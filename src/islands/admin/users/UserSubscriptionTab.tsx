import { CreditCard } from 'lucide-react';
import { useT } from '../../../stores/i18n.ts';

/** The subscription tab: billing is not configured on this instance yet, so every account is on the free plan. */
export default function UserSubscriptionTab() {
  const t = useT();
  return (
    <section className="card max-w-xl p-6">
      <div className="flex items-start gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-surface-2 text-muted">
          <CreditCard className="size-5" aria-hidden />
        </span>
        <div className="min-w-0">
          <h2 className="text-lg font-bold">{t('admin_users.subscription_title')}</h2>
          <p className="mt-1 text-sm text-muted">{t('admin_users.subscription_text')}</p>
        </div>
      </div>
      <dl className="mt-5 grid gap-4 border-t border-border pt-5 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-muted">{t('admin_users.plan')}</dt>
          <dd className="mt-1 font-semibold">{t('admin_users.plan_free')}</dd>
        </div>
        <div>
          <dt className="text-muted">{t('admin_users.subscription_status')}</dt>
          <dd className="mt-1 font-semibold">{t('admin_users.subscription_none')}</dd>
        </div>
      </dl>
    </section>
  );
}
