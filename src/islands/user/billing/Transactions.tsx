import { FileText } from 'lucide-react';
import { Spinner } from '../../../components/Spinner.tsx';
import { formatDateTime } from '../../../stores/dates.ts';
import { useT } from '../../../stores/i18n.ts';
import { billingApi, type TransactionData } from './api.ts';
import { driverLabel, SignedAmount, StatusBadge } from './TransactionBadges.tsx';
import { usePaged } from './usePaged.ts';

/** The billing page's transactions (SPEC §3 columns: note, status, type, amount, created_at, driver, actions), newest first. */
export function Transactions() {
  const t = useT();
  const { rows, loading, error, more, reload } = usePaged(billingApi.transactions);
  return (
    <section className="card" aria-labelledby="billing-transactions-title">
      <h2 id="billing-transactions-title" className="border-b border-border px-5 py-4 text-lg font-bold">{t('billing_ledger.transactions_title')}</h2>
      <TransactionRows rows={rows} loading={loading} error={error} more={more} reload={reload} />
    </section>
  );
}

/** The rows of a transactions list, shared with the admin's list (which adds the customer). */
export function TransactionRows({ rows, loading, error, more, reload, showUser = false }: { rows: TransactionData[] | null; loading: boolean; error: string; more: (() => void) | null; reload: () => void; showUser?: boolean }) {
  const t = useT();
  if (error)
    return (
      <div className="m-5 flex flex-wrap items-center gap-3">
        <p role="alert" className="notice-danger flex-1">{t('billing_ledger.load_failed')} {error}</p>
        <button type="button" className="btn-secondary" onClick={reload}>{t('billing_ledger.retry')}</button>
      </div>
    );
  if (!rows)
    return (
      <div className="flex justify-center py-10">
        <Spinner label={t('app.loading')} />
      </div>
    );
  if (!rows.length) return <p className="px-5 py-10 text-center text-sm text-muted">{showUser ? t('billing_ledger.admin_no_results') : t('billing_ledger.transactions_empty')}</p>;
  return (
    <>
      <table className="w-full text-sm">
        <thead className="sr-only sm:not-sr-only">
          <tr className="border-b border-border text-left text-xs tracking-wide text-muted uppercase">
            <th scope="col" className="px-5 py-2 font-semibold">{t('billing_ledger.col_date')}</th>
            {showUser && <th scope="col" className="px-3 py-2 font-semibold">{t('billing_ledger.col_user')}</th>}
            <th scope="col" className="px-3 py-2 font-semibold">{t('billing_ledger.col_note')}</th>
            <th scope="col" className="px-3 py-2 font-semibold">{t('billing_ledger.col_type')}</th>
            <th scope="col" className="px-3 py-2 font-semibold">{t('billing_ledger.col_status')}</th>
            <th scope="col" className="px-3 py-2 font-semibold">{t('billing_ledger.col_driver')}</th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">{t('billing_ledger.col_amount')}</th>
            <th scope="col" className="px-5 py-2 text-right font-semibold"><span className="sr-only">{t('billing_ledger.col_actions')}</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {rows.map(({ id, attributes: a }) => (
            <tr key={id} data-testid="transaction-row" className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 px-5 py-3 sm:table-row sm:p-0">
              <td className="order-3 text-xs text-muted sm:px-5 sm:py-3 sm:text-sm sm:text-text"><time dateTime={a.created_at}>{formatDateTime(a.created_at)}</time></td>
              {showUser && <td className="order-7 col-span-2 truncate text-xs text-muted sm:max-w-48 sm:px-3 sm:py-3 sm:text-sm sm:text-text">{a.email}</td>}
              <td className="order-1 min-w-0 truncate font-medium sm:max-w-64 sm:px-3 sm:py-3">{a.note || '—'}</td>
              <td className="order-5 text-xs sm:px-3 sm:py-3 sm:text-sm">{t(`billing_ledger.type_${a.type}`)}</td>
              <td className="order-4 text-right sm:px-3 sm:py-3 sm:text-left"><StatusBadge status={a.status} /></td>
              <td className="order-6 text-right text-xs text-muted sm:px-3 sm:py-3 sm:text-left sm:text-sm">{driverLabel(t, a.driver)}</td>
              <td className="order-2 text-right sm:px-3 sm:py-3"><SignedAmount row={a} /></td>
              <td className="order-8 col-span-2 empty:hidden sm:empty:table-cell sm:px-5 sm:py-3 sm:text-right">
                {a.invoice_id && (
                  <a className="link inline-flex items-center gap-1 text-xs sm:text-sm" href={`/invoices/${a.invoice_id}`} rel="external">
                    <FileText className="size-4" aria-hidden />
                    {t('billing_ledger.invoice_heading')}
                  </a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {more && (
        <div className="border-t border-border px-5 py-3 text-center">
          <button type="button" className="btn-secondary" disabled={loading} onClick={more}>{loading ? t('app.loading') : t('billing_ledger.more')}</button>
        </div>
      )}
    </>
  );
}
