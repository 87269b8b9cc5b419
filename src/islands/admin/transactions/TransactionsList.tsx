import { useState } from 'react';
import { useT } from '../../../stores/i18n.ts';
import { billingApi } from '../../user/billing/api.ts';
import { TransactionRows } from '../../user/billing/Transactions.tsx';
import { usePaged } from '../../user/billing/usePaged.ts';
import { SearchBox } from '../invoices/InvoicesScreen.tsx';

const STATUSES = ['completed', 'cancelled', 'error'] as const;
const TYPES = ['credit', 'charge', 'withdrawal'] as const;

/** The admin's transactions: every user's, newest first, by email or reference, status and type. */
export function TransactionsList() {
  const t = useT();
  const [q, setQ] = useState('');
  const [filter, setFilter] = useState({ q: '', status: '', type: '' });
  const list = usePaged((cursor) => billingApi.adminTransactions(filter, cursor), JSON.stringify(filter));
  return (
    <section className="card" aria-labelledby="admin-transactions-title">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-border px-5 py-4">
        <h2 id="admin-transactions-title" className="text-lg font-bold">{t('billing_ledger.admin_transactions_title')}</h2>
        <div className="flex w-full flex-wrap items-center gap-2 sm:w-auto">
          <select className="input w-auto py-1.5" aria-label={t('billing_ledger.admin_filter_status')} value={filter.status} onChange={(e) => setFilter((f) => ({ ...f, status: e.target.value }))}>
            <option value="">{t('billing_ledger.admin_filter_status')}: {t('billing_ledger.admin_all')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>{t(`billing_ledger.status_${s}`)}</option>
            ))}
          </select>
          <select className="input w-auto py-1.5" aria-label={t('billing_ledger.admin_filter_type')} value={filter.type} onChange={(e) => setFilter((f) => ({ ...f, type: e.target.value }))}>
            <option value="">{t('billing_ledger.admin_filter_type')}: {t('billing_ledger.admin_all')}</option>
            {TYPES.map((s) => (
              <option key={s} value={s}>{t(`billing_ledger.type_${s}`)}</option>
            ))}
          </select>
          <SearchBox label={t('billing_ledger.admin_search_transactions')} value={q} onChange={setQ} onSubmit={() => setFilter((f) => ({ ...f, q: q.trim() }))} />
        </div>
      </div>
      <TransactionRows {...list} showUser />
    </section>
  );
}
