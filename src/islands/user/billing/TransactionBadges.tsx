import { useT } from '../../../stores/i18n.ts';
import type { TransactionData } from './api.ts';
import { formatMinor } from '../../../components/billing/money.ts';

const STATUS_CLASS: Record<TransactionData['attributes']['status'], string> = {
  completed: 'bg-success/12 text-success-text',
  cancelled: 'bg-warning/15 text-warning-text',
  error: 'bg-danger/12 text-danger-text',
};

/** SPEC §4: each transaction status has its colour. */
export function StatusBadge({ status }: { status: TransactionData['attributes']['status'] }) {
  const t = useT();
  return <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_CLASS[status]}`}>{t(`billing_ledger.status_${status}`)}</span>;
}

/** SPEC §4: a credit shows with plus, a charge or withdrawal with minus. */
export function SignedAmount({ row }: { row: TransactionData['attributes'] }) {
  const credit = row.type === 'credit';
  return (
    <span className={`font-semibold tabular-nums whitespace-nowrap ${credit ? 'text-success-text' : ''} ${row.status !== 'completed' ? 'line-through decoration-muted/70 opacity-75' : ''}`}>
      {credit ? '+' : '−'}
      {formatMinor(row.amount_minor, row.currency)}
    </span>
  );
}

export function driverLabel(t: (key: string) => string, driver: string): string {
  const key = `billing_ledger.driver_${driver}`;
  const label = t(key);
  return label === key ? driver : label;
}
