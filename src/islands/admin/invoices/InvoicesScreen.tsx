import { Search } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useTitle } from '../../../components/useTitle.ts';
import { useT } from '../../../stores/i18n.ts';
import { billingApi } from '../../user/billing/api.ts';
import { InvoiceRows } from '../../user/billing/Invoices.tsx';
import { usePaged } from '../../user/billing/usePaged.ts';
import { TransactionsList } from '../transactions/TransactionsList.tsx';
import type { AdminScreenProps } from '../screens.ts';

/** /admin/invoices: every invoice, searchable by number or customer email, and every transaction. */
export default function InvoicesScreen(_: AdminScreenProps) {
  const t = useT();
  useTitle(t('billing_ledger.admin_invoices_title'));
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const invoices = usePaged((cursor) => billingApi.adminInvoices(search, cursor), search);
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={t('billing_ledger.admin_invoices_title')} subtitle={t('billing_ledger.admin_invoices_subtitle')} />
      <section className="card" aria-labelledby="admin-invoices-title">
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-border px-5 py-4">
          <h2 id="admin-invoices-title" className="text-lg font-bold">{t('billing_ledger.admin_tab_invoices')}</h2>
          <SearchBox label={t('billing_ledger.admin_search_invoices')} value={q} onChange={setQ} onSubmit={() => setSearch(q.trim())} />
        </div>
        <InvoiceRows {...invoices} showUser />
      </section>
      <TransactionsList />
    </div>
  );
}

export function SearchBox({ label, value, onChange, onSubmit }: { label: string; value: string; onChange: (v: string) => void; onSubmit: () => void }) {
  const t = useT();
  return (
    <form
      role="search"
      aria-label={label}
      className="flex w-full items-center gap-2 sm:w-auto"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <input className="input min-w-0 flex-1 py-1.5 sm:w-64" type="search" aria-label={label} placeholder={label} value={value} onChange={(e) => onChange(e.target.value)} />
      <button type="submit" className="btn-secondary py-1.5" aria-label={t('billing_ledger.admin_search')}>
        <Search className="size-4" aria-hidden />
      </button>
    </form>
  );
}
