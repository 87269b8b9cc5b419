import { api } from '../../../stores/api.ts';

/** The billing page's typed API (LEDGER's routes: src/pages/api/billing/*). */
export interface TransactionData {
  id: string;
  attributes: {
    note: string;
    user_id: string;
    email?: string;
    status: 'completed' | 'cancelled' | 'error';
    type: 'credit' | 'charge' | 'withdrawal';
    amount_minor: number;
    currency: string;
    driver: string;
    reference: string;
    invoice_id: string | null;
    created_at: string;
  };
}
export interface InvoiceData {
  id: string;
  attributes: { number: string; email?: string; status: 'paid' | 'unpaid'; currency: string; total_minor: number; period_start: string | null; period_end: string | null; issued_at: string; url: string };
}
export interface BalanceData {
  attributes: {
    balance_minor: number;
    currency: string | null;
    alert_minor: number | null;
    outstanding: { amount_minor: number; currency: string } | null;
    cost_estimate: { amount_minor: number; currency: string; period_start: string; period_end: string } | null;
  };
}
export interface Page<T> {
  data: T[];
  meta: { next_cursor: string | null };
}

const withCursor = (path: string, cursor: string | null, extra: Record<string, string> = {}) => {
  const params = new URLSearchParams({ limit: '10', ...extra });
  if (cursor) params.set('cursor', cursor);
  return `${path}?${params}`;
};

export const billingApi = {
  transactions: (cursor: string | null) => api.get<Page<TransactionData>>(withCursor('/api/billing/transactions', cursor)),
  invoices: (cursor: string | null) => api.get<Page<InvoiceData>>(withCursor('/api/billing/invoices', cursor)),
  balance: () => api.get<{ data: BalanceData }>('/api/billing/balance'),
  setAlert: (amountMinor: number | null) => api.patch<{ data: { alert_minor: number | null } }>('/api/billing/alert', { amount_minor: amountMinor }),
  adminInvoices: (q: string, cursor: string | null) => api.get<Page<InvoiceData>>(withCursor('/api/admin/invoices', cursor, q ? { q, limit: '20' } : { limit: '20' })),
  adminTransactions: (filter: { q: string; status: string; type: string }, cursor: string | null) =>
    api.get<Page<TransactionData>>(withCursor('/api/admin/transactions', cursor, { limit: '20', ...Object.fromEntries(Object.entries(filter).filter(([, v]) => v)) })),
};
