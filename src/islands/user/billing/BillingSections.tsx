import { useEffect, useState } from 'react';
import { LoadFailedCard, LoadingCard } from '../../../components/LoadStates.tsx';
import { useT } from '../../../stores/i18n.ts';
import { Alert } from './Alert.tsx';
import { billingApi, type BalanceData } from './api.ts';
import { Balance } from './Balance.tsx';
import { Invoices } from './Invoices.tsx';
import { Transactions } from './Transactions.tsx';

/** LEDGER's part of the billing page: balance (and the alert on metered plans), transactions, invoices. */
export function BillingSections({ onPay }: { onPay?: (purpose: 'outstanding' | 'top-up', amountMinor?: number) => void }) {
  const t = useT();
  const [balance, setBalance] = useState<BalanceData['attributes'] | null>(null);
  const [failed, setFailed] = useState(false);
  const load = () => {
    setFailed(false);
    billingApi.balance().then((res) => setBalance(res.data.attributes), () => setFailed(true));
  };
  useEffect(load, []);
  return (
    <div className="flex flex-col gap-6">
      {failed && <LoadFailedCard title={t('billing_ledger.load_failed')} retryLabel={t('billing_ledger.retry')} onRetry={load} />}
      {!failed && !balance && <LoadingCard />}
      {balance && <Balance balance={balance} onPay={onPay} />}
      {balance?.cost_estimate && balance.currency && (
        <Alert currency={balance.currency} alertMinor={balance.alert_minor} onSaved={(alert_minor) => setBalance((b) => (b ? { ...b, alert_minor } : b))} />
      )}
      <Transactions />
      <Invoices />
    </div>
  );
}
