import { useEffect } from 'react';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useTitle } from '../../../components/useTitle.ts';
import { useT } from '../../../stores/i18n.ts';
import type { AdminScreenProps } from '../screens.ts';
import BillingsTab from './BillingsTab.tsx';
import ProvidersTab from './ProvidersTab.tsx';
import { isPaymentsTab, PAYMENTS_TABS } from './tabs.ts';

const LABEL_KEYS = { billings: 'billing_pay.tab_billings', payments: 'billing_pay.tab_payments' } as const;

/** /admin/payments/:tab?: the company's billing details and the payment providers. */
export default function PaymentsScreen({ params }: AdminScreenProps) {
  const t = useT();
  const tab = params.tab || PAYMENTS_TABS[0];
  const known = isPaymentsTab(tab);
  useTitle(known ? `${t(LABEL_KEYS[tab])} · ${t('billing_pay.admin_title')}` : t('billing_pay.admin_title'));
  // A tab the app does not know: load it, so the server answers with the real 404 page.
  useEffect(() => {
    if (!known) location.replace(location.href);
  }, [known]);
  if (!known) return null;
  return (
    <div>
      <PageHeader title={t('billing_pay.admin_title')} subtitle={t('billing_pay.admin_subtitle')} />
      <nav aria-label={t('billing_pay.admin_tabs')} className="mb-6 flex gap-1 overflow-x-auto border-b border-border">
        {PAYMENTS_TABS.map((name) => (
          <a
            key={name}
            href={`/admin/payments/${name}`}
            aria-current={name === tab ? 'page' : undefined}
            className={`-mb-px shrink-0 border-b-2 px-3 py-2.5 text-sm font-semibold whitespace-nowrap transition-colors ${
              name === tab ? 'border-brand text-brand' : 'border-transparent text-muted hover:text-text'
            }`}
          >
            {t(LABEL_KEYS[name])}
          </a>
        ))}
      </nav>
      {tab === 'billings' ? <BillingsTab key="billings" /> : <ProvidersTab key="payments" />}
    </div>
  );
}
