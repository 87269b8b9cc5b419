import { Download } from 'lucide-react';
import { Spinner } from '../../../components/Spinner.tsx';
import { formatDate } from '../../../stores/dates.ts';
import { useT } from '../../../stores/i18n.ts';
import { billingApi, type InvoiceData } from './api.ts';
import { formatMinor } from '../../../components/billing/money.ts';
import { usePaged } from './usePaged.ts';

/** The billing page's invoices: each opens the printable page /invoices/{id} or downloads its PDF. */
export function Invoices() {
  const t = useT();
  const { rows, loading, error, more, reload } = usePaged(billingApi.invoices);
  return (
    <section className="card" aria-labelledby="billing-invoices-title">
      <h2 id="billing-invoices-title" className="border-b border-border px-5 py-4 text-lg font-bold">{t('billing_ledger.invoices_title')}</h2>
      <InvoiceRows rows={rows} loading={loading} error={error} more={more} reload={reload} />
    </section>
  );
}

export function InvoiceRows({ rows, loading, error, more, reload, showUser = false }: { rows: InvoiceData[] | null; loading: boolean; error: string; more: (() => void) | null; reload: () => void; showUser?: boolean }) {
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
  if (!rows.length) return <p className="px-5 py-10 text-center text-sm text-muted">{showUser ? t('billing_ledger.admin_no_results') : t('billing_ledger.invoices_empty')}</p>;
  return (
    <>
      <ul className="divide-y divide-border">
        {rows.map(({ id, attributes: a }) => (
          <li key={id} data-testid="invoice-row" className="flex flex-wrap items-center gap-x-4 gap-y-1 px-5 py-3 text-sm">
            <a className="link font-mono font-semibold" href={a.url} rel="external" aria-label={t('billing_ledger.view_invoice', { number: a.number })}>
              {a.number}
            </a>
            {showUser && <span className="min-w-0 truncate text-muted">{a.email}</span>}
            <time className="text-muted" dateTime={a.issued_at}>{formatDate(a.issued_at)}</time>
            <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${a.status === 'paid' ? 'bg-success/12 text-success-text' : 'bg-danger/12 text-danger-text'}`}>
              {t(a.status === 'paid' ? 'billing_ledger.invoice_paid' : 'billing_ledger.invoice_unpaid')}
            </span>
            <span className="ml-auto font-semibold tabular-nums">{formatMinor(a.total_minor, a.currency)}</span>
            <a className="btn-secondary px-2 py-1 text-xs" href={`${a.url}.pdf`} download aria-label={t('billing_ledger.download_invoice', { number: a.number })}>
              <Download className="size-4" aria-hidden />
              {t('billing_ledger.pdf')}
            </a>
          </li>
        ))}
      </ul>
      {more && (
        <div className="border-t border-border px-5 py-3 text-center">
          <button type="button" className="btn-secondary" disabled={loading} onClick={more}>{loading ? t('app.loading') : t('billing_ledger.more')}</button>
        </div>
      )}
    </>
  );
}
