import { sql, type Selectable } from 'kysely';
import type { InvoicesTable, TransactionsTable } from '../../../db/schema.ts';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { requireAdmin } from '../admin/guard.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { keysetPage, pageRequest } from '../http/keyset.ts';
import type { InvoiceLine } from './invoices.ts';
import { outstandingFor } from './ledger.ts';
import { costEstimate } from './metered.ts';

type TransactionRow = Selectable<TransactionsTable> & { email?: string };
type InvoiceRow = Selectable<InvoicesTable> & { email?: string };

/** SPEC §3 transaction columns: note, user_id, status, type, amount (minor units + currency), created_at, driver. */
export function presentTransaction(row: TransactionRow) {
  return {
    id: row.id,
    type: 'transaction' as const,
    attributes: {
      note: row.note,
      user_id: row.user_id,
      ...(row.email !== undefined ? { email: row.email } : {}),
      status: row.status,
      type: row.type,
      amount_minor: Number(row.amount_minor),
      currency: row.currency,
      driver: row.driver,
      reference: row.reference,
      invoice_id: row.invoice_id,
      created_at: row.created_at,
    },
  };
}

const parse = <T>(raw: string, fallback: T): T => {
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
};

export function presentInvoice(row: InvoiceRow) {
  return {
    id: row.id,
    type: 'invoice' as const,
    attributes: {
      number: row.number,
      user_id: row.user_id,
      ...(row.email !== undefined ? { email: row.email } : {}),
      status: row.status,
      currency: row.currency,
      total_minor: Number(row.total_minor),
      lines: parse<InvoiceLine[]>(row.lines, []),
      seller: parse<Record<string, unknown>>(row.seller, {}),
      customer: parse<Record<string, unknown>>(row.customer, {}),
      period_start: row.period_start,
      period_end: row.period_end,
      issued_at: row.issued_at,
      paid_at: row.paid_at,
      url: `/invoices/${row.id}`,
    },
  };
}
export type InvoiceData = ReturnType<typeof presentInvoice>;

const after = (page: { after: (string | number | null)[] | null }) => page.after as [string, string] | null;

/** The user's own transactions, newest first, keyset-paged. */
export async function listOwnTransactions(ctx: AppContext, user: User, query: URLSearchParams) {
  const page = pageRequest(query, 2);
  let q = ctx.db.selectFrom('transactions').selectAll().where('user_id', '=', user.id);
  const key = after(page);
  if (key) q = q.where((eb) => eb.or([eb('created_at', '<', key[0]), eb.and([eb('created_at', '=', key[0]), eb('id', '<', key[1])])]));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
  return keysetPage(rows, page, (r) => [r.created_at, r.id], presentTransaction, { path: '/api/billing/transactions', query });
}

/** The user's own invoices, newest first. */
export async function listOwnInvoices(ctx: AppContext, user: User, query: URLSearchParams) {
  const page = pageRequest(query, 2);
  let q = ctx.db.selectFrom('invoices').selectAll().where('user_id', '=', user.id);
  const key = after(page);
  if (key) q = q.where((eb) => eb.or([eb('issued_at', '<', key[0]), eb.and([eb('issued_at', '=', key[0]), eb('id', '<', key[1])])]));
  const rows = await q.orderBy('issued_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
  return keysetPage(rows, page, (r) => [r.issued_at, r.id], presentInvoice, { path: '/api/billing/invoices', query });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One invoice: the user's own, or any for an admin; everyone else gets 404 (no hint it exists). */
export async function invoiceFor(ctx: AppContext, user: User | null, id: string | undefined) {
  if (!user || !id || !UUID.test(id)) throw notFound('The invoice was not found.');
  let q = ctx.db.selectFrom('invoices').selectAll().where('id', '=', id);
  if (user.role !== 'admin') q = q.where('user_id', '=', user.id);
  const row = await q.executeTakeFirst();
  if (!row) throw notFound('The invoice was not found.');
  return row;
}

/** One transaction of the user's own (an admin: any); otherwise 404. */
export async function transactionFor(ctx: AppContext, user: User, id: string | undefined) {
  if (!id || !UUID.test(id)) throw notFound('The transaction was not found.');
  let q = ctx.db.selectFrom('transactions').selectAll().where('id', '=', id);
  if (user.role !== 'admin') q = q.where('user_id', '=', user.id);
  const row = await q.executeTakeFirst();
  if (!row) throw notFound('The transaction was not found.');
  return { data: presentTransaction(row) };
}

/** The billing page's balance section: balance, alert, what is owed and the metered month so far. */
export async function balanceOf(ctx: AppContext, user: User) {
  const [account, outstanding, estimate] = await Promise.all([
    ctx.db.selectFrom('billing_accounts').selectAll().where('user_id', '=', user.id).executeTakeFirst(),
    outstandingFor(ctx, user.id),
    costEstimate(ctx, user.id),
  ]);
  return {
    data: {
      id: user.id,
      type: 'billing-balance',
      attributes: {
        balance_minor: account ? Number(account.balance_minor) : 0,
        currency: account?.currency ?? estimate?.currency ?? null,
        alert_minor: account?.alert_minor === null || account?.alert_minor === undefined ? null : Number(account.alert_minor),
        outstanding: outstanding ? { amount_minor: outstanding.amountMinor, currency: outstanding.currency } : null,
        cost_estimate: estimate,
      },
    },
  };
}

function searchTerm(query: URLSearchParams): string | null {
  const q = (query.get('q') ?? '').trim();
  if (q.length > 200) throw badRequest('The search is too long.');
  return q ? q.toLowerCase() : null;
}

/** `lower(column) LIKE %term%` with the term's own % and _ taken literally (the same ESCAPE on SQLite and PostgreSQL). */
const contains = (column: string, term: string) => sql<boolean>`lower(${sql.ref(column)}) like ${`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`;

/** /admin/invoices: all invoices, newest first, searchable by number or customer email. */
export async function listAllInvoices(ctx: AppContext, user: User, query: URLSearchParams) {
  requireAdmin(user);
  const page = pageRequest(query, 2);
  const term = searchTerm(query);
  let q = ctx.db.selectFrom('invoices').innerJoin('users', 'users.id', 'invoices.user_id').selectAll('invoices').select('users.email as email');
  if (term) q = q.where((eb) => eb.or([contains('invoices.number', term), contains('users.email', term)]));
  const key = after(page);
  if (key) q = q.where((eb) => eb.or([eb('invoices.issued_at', '<', key[0]), eb.and([eb('invoices.issued_at', '=', key[0]), eb('invoices.id', '<', key[1])])]));
  const rows = await q.orderBy('invoices.issued_at', 'desc').orderBy('invoices.id', 'desc').limit(page.limit + 1).execute();
  return keysetPage(rows, page, (r) => [r.issued_at, r.id], presentInvoice, { path: '/api/admin/invoices', query });
}

const STATUSES = new Set(['completed', 'cancelled', 'error']);
const TYPES = new Set(['credit', 'charge', 'withdrawal']);

/** The admin's transactions list: newest first, by customer email or reference, status and type. */
export async function listAllTransactions(ctx: AppContext, user: User, query: URLSearchParams) {
  requireAdmin(user);
  const page = pageRequest(query, 2);
  const term = searchTerm(query);
  const status = query.get('status');
  const type = query.get('type');
  if (status && !STATUSES.has(status)) throw badRequest('The status must be completed, cancelled or error.');
  if (type && !TYPES.has(type)) throw badRequest('The type must be credit, charge or withdrawal.');
  let q = ctx.db.selectFrom('transactions').innerJoin('users', 'users.id', 'transactions.user_id').selectAll('transactions').select('users.email as email');
  if (term) q = q.where((eb) => eb.or([contains('users.email', term), eb(eb.fn('lower', ['transactions.reference']), '=', term)]));
  if (status) q = q.where('transactions.status', '=', status as 'completed');
  if (type) q = q.where('transactions.type', '=', type as 'credit');
  const key = after(page);
  if (key) q = q.where((eb) => eb.or([eb('transactions.created_at', '<', key[0]), eb.and([eb('transactions.created_at', '=', key[0]), eb('transactions.id', '<', key[1])])]));
  const rows = await q.orderBy('transactions.created_at', 'desc').orderBy('transactions.id', 'desc').limit(page.limit + 1).execute();
  return keysetPage(rows, page, (r) => [r.created_at, r.id], presentTransaction, { path: '/api/admin/transactions', query });
}
