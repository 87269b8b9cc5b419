import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newReference, outstandingFor, recordFailedPayment, recordPayment } from '../../src/server/billing/ledger.ts';
import type { AppContext } from '../../src/server/context.ts';
import { isAppError } from '../../src/server/http/errors.ts';
import { failPayments, topUp } from '../support/billing-ledger.ts';
import { Client, registerUser } from '../support/client.ts';
import { seedContext } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { uploadForm } from '../support/uploads.ts';

/**
 * LEDGER (issue 15): payments and failed payments, gapless invoices per year, who may read an
 * invoice or a transaction, the limited account (3 failed payments) and paying it free, the
 * admin's gift credit. Payments are recorded through the service (PAY's webhooks call it).
 */
const ADMIN = { email: 'ledger-admin@example.test', password: 'ledger admin password' };

let server: RunningServer;
let seed: AppContext;
let admin: Client;
beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'Ledger Admin' } });
  seed = await seedContext(server);
  admin = new Client(server.url);
  expect((await admin.post('/login', ADMIN)).status).toBe(200);
});
afterAll(async () => {
  await seed?.db.destroy();
  await server?.stop();
});

const account = (userId: string) => seed.db.selectFrom('billing_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
const transactionsOf = (userId: string) => seed.db.selectFrom('transactions').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
const notificationsOf = (userId: string, category: string) => seed.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).where('category', '=', category).execute();

async function refusal(work: Promise<unknown>): Promise<{ status: number; errors?: Record<string, string[]> }> {
  try {
    await work;
  } catch (error) {
    if (isAppError(error)) return { status: error.status, errors: error.errors };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('payments and invoices', () => {
  it('a top-up is a credit, an invoice and balance; the same reference twice counts once', async () => {
    const { user, client } = await registerUser(server.url);
    const reference = newReference();
    expect(reference).toMatch(/^[A-Za-z0-9]{10}$/);
    const first = await recordPayment(seed, { userId: user.id, amountMinor: 2500, currency: 'EUR', driver: 'paypal', reference, note: '', purpose: 'top-up' });
    const again = await recordPayment(seed, { userId: user.id, amountMinor: 2500, currency: 'EUR', driver: 'paypal', reference, note: '', purpose: 'top-up' });
    expect(again).toEqual(first);
    expect(Number((await account(user.id))!.balance_minor)).toBe(2500);
    const tx = await client.get('/api/billing/transactions');
    expect(tx.status, tx.text).toBe(200);
    expect(tx.body.data).toHaveLength(1);
    expect(tx.body.data[0].attributes).toMatchObject({ type: 'credit', status: 'completed', amount_minor: 2500, currency: 'EUR', driver: 'paypal', reference, invoice_id: first.invoiceId });
    const invoice = await client.get(`/api/billing/invoices/${first.invoiceId}`);
    expect(invoice.status).toBe(200);
    expect(invoice.body.data.attributes).toMatchObject({ status: 'paid', total_minor: 2500, currency: 'EUR', customer: { email: user.attributes.email } });
    expect(invoice.body.data.attributes.number).toMatch(/^\d{4}-\d{5}$/);
    const balance = await client.get('/api/billing/balance');
    expect(balance.body.data.attributes).toMatchObject({ balance_minor: 2500, currency: 'EUR', outstanding: null, cost_estimate: null });
  });

  it('numbers invoices without gaps per year, even from two processes at once', async () => {
    const users = await Promise.all([registerUser(server.url), registerUser(server.url), registerUser(server.url)]);
    const payer = (userId: string) =>
      new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, ['tests/support/billing-pay-many.ts', server.dataDir, server.databaseUrl ?? '-', userId, '6'], { stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        child.stderr.on('data', (d) => (err += d));
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`payer exited ${code}: ${err}`))));
      });
    // Two other processes and this one (several connections at once on PostgreSQL) all issue invoices together.
    await Promise.all([payer(users[0]!.user.id), payer(users[1]!.user.id), ...Array.from({ length: 6 }, (_, i) => topUp(seed, users[2]!.user.id, 200 + i))]);
    expect(await seed.db.selectFrom('invoices').select('id').where('user_id', 'in', users.map((u) => u.user.id)).execute()).toHaveLength(18);
    const year = new Date().getUTCFullYear();
    const rows = await seed.db.selectFrom('invoices').select(['seq', 'number']).where('year', '=', year).orderBy('seq').execute();
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    expect(rows.map((r) => r.number)).toEqual(rows.map((_, i) => `${year}-${String(i + 1).padStart(5, '0')}`));
  });

  it('refuses a negative, zero or fractional amount and another currency than the account’s (422), changing nothing', async () => {
    const { user } = await registerUser(server.url);
    await topUp(seed, user.id, 1000, 'EUR');
    for (const amountMinor of [-100, 0, 12.5, Number.NaN]) {
      expect((await refusal(recordPayment(seed, { userId: user.id, amountMinor, currency: 'EUR', driver: 'stripe', reference: newReference(), note: '', purpose: 'top-up' }))).status).toBe(422);
    }
    const mismatch = await refusal(recordPayment(seed, { userId: user.id, amountMinor: 500, currency: 'USD', driver: 'stripe', reference: newReference(), note: '', purpose: 'top-up' }));
    expect(mismatch.status).toBe(422);
    expect(mismatch.errors?.currency?.[0]).toMatch(/EUR/);
    expect((await refusal(recordFailedPayment(seed, { userId: user.id, subscriptionId: null, amountMinor: 500, currency: 'USD', driver: 'stripe', reason: '', reference: newReference() }))).status).toBe(422);
    expect((await refusal(topUp(seed, user.id, 100, 'XYZ'))).status).toBe(422);
    expect(await transactionsOf(user.id)).toHaveLength(1);
    expect(Number((await account(user.id))!.balance_minor)).toBe(1000);
  });
});

describe('who may see an invoice or a transaction', () => {
  it('the owner and an admin; another user and a signed-out visitor get 404 (the API, the page and the PDF)', async () => {
    const owner = await registerUser(server.url);
    const other = await registerUser(server.url);
    const { invoiceId, transactionId } = await topUp(seed, owner.user.id, 1234);
    const html = { headers: { Accept: 'text/html' }, xrw: false };

    expect((await owner.client.get(`/api/billing/transactions/${transactionId}`)).status).toBe(200);
    const page = await owner.client.get(`/invoices/${invoiceId}`, html);
    expect(page.status).toBe(200);
    expect(page.text).toContain('€12.34');
    const pdf = await owner.client.get(`/invoices/${invoiceId}.pdf`, html);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.text.startsWith('%PDF-')).toBe(true);
    expect((await admin.get(`/invoices/${invoiceId}`, html)).status).toBe(200);
    expect((await admin.get(`/api/billing/invoices/${invoiceId}`)).status).toBe(200);

    expect((await other.client.get(`/api/billing/invoices/${invoiceId}`)).status).toBe(404);
    expect((await other.client.get(`/api/billing/transactions/${transactionId}`)).status).toBe(404);
    expect((await other.client.get(`/invoices/${invoiceId}`, html)).status).toBe(404);
    expect((await other.client.get(`/invoices/${invoiceId}.pdf`, html)).status).toBe(404);
    expect((await other.client.get('/api/billing/invoices')).body.data).toEqual([]);
    expect((await other.client.get('/api/billing/transactions')).body.data).toEqual([]);
    const anonymous = new Client(server.url);
    expect((await anonymous.get(`/invoices/${invoiceId}`, html)).status).toBe(404);
    expect((await anonymous.get(`/invoices/${invoiceId}.pdf`, html)).status).toBe(404);
    expect((await anonymous.get(`/api/billing/invoices/${invoiceId}`)).status).toBe(401);
    expect((await anonymous.get('/api/billing/transactions')).status).toBe(401);
    expect((await owner.client.get('/api/billing/invoices/not-an-id')).status).toBe(404);
  });

  it('the admin lists and searches every invoice and transaction; a user may not', async () => {
    const { user, client } = await registerUser(server.url, { email: `under_score.${Date.now().toString(36)}@example.test` });
    const { invoiceId } = await topUp(seed, user.id, 777);
    // An underscore in the search is that character, not "any one character".
    const partial = await admin.get(`/api/admin/invoices?q=${encodeURIComponent(user.attributes.email.slice(0, 12).toUpperCase())}`);
    expect(partial.body.data.map((i: { id: string }) => i.id)).toEqual([invoiceId]);
    expect((await admin.get('/api/admin/invoices?q=under%25score')).body.data).toEqual([]);
    const number = (await seed.db.selectFrom('invoices').select('number').where('id', '=', invoiceId).executeTakeFirstOrThrow()).number;
    const byEmail = await admin.get(`/api/admin/invoices?q=${encodeURIComponent(user.attributes.email)}`);
    expect(byEmail.status, byEmail.text).toBe(200);
    expect(byEmail.body.data.map((i: { id: string }) => i.id)).toEqual([invoiceId]);
    const byNumber = await admin.get(`/api/admin/invoices?q=${number}`);
    expect(byNumber.body.data.map((i: { id: string }) => i.id)).toEqual([invoiceId]);
    const tx = await admin.get(`/api/admin/transactions?q=${encodeURIComponent(user.attributes.email)}&status=completed&type=credit`);
    expect(tx.body.data).toHaveLength(1);
    expect(tx.body.data[0].attributes).toMatchObject({ amount_minor: 777, email: user.attributes.email });
    expect((await admin.get('/api/admin/transactions?status=lost')).status).toBe(400);
    expect((await client.get('/api/admin/invoices')).status).toBe(403);
    expect((await client.get('/api/admin/transactions')).status).toBe(403);
    expect((await new Client(server.url).get('/api/admin/invoices')).status).toBe(401);
  });
});

describe('the limited account', () => {
  it('3 failed payments limit it with the spec’s codes; a 4th keeps it so without a second notice; paying the outstanding amount lifts it at once, the admin’s own flag stays', async () => {
    const { user, client } = await registerUser(server.url);
    // The admin switched downloads off first: billing's limit must not lift that.
    expect((await admin.request(`/api/admin/users/${user.id}/storage`, { method: 'PATCH', json: { restrictions: { canDownload: false } } })).status).toBe(200);
    await failPayments(seed, user.id, 2);
    expect((await client.get('/api/user')).body.data.meta.restrictions.canUpload).toBe(true);
    await failPayments(seed, user.id, 1);
    let me = (await client.get('/api/user')).body.data;
    expect(me.relationships.failedPayments.data).toHaveLength(3);
    expect(me.relationships.failedPayments.data[0].attributes).toMatchObject({ amount_minor: 900, currency: 'EUR', reason: 'card declined' });
    expect(me.meta.restrictions).toEqual({ canUpload: false, canDownload: false, canCreateFolder: false, canCreateTeamFolder: false });
    const upload = await uploadForm(client, 'hello', { filename: 'a.txt' });
    expect(upload.status).toBe(423);
    expect(upload.body.code).toBe('upload_temporarily_disabled');
    const folder = await client.post('/api/create-folder', { name: 'Nope', parent_id: null });
    expect(folder.status).toBe(423);
    expect(folder.body.code).toBe('create_folder_temporarily_disabled');
    expect(await notificationsOf(user.id, 'insufficient-balance')).toHaveLength(3);

    // An admin switching uploads back on does not lift billing's limit.
    const storage = await admin.request(`/api/admin/users/${user.id}/storage`, { method: 'PATCH', json: { restrictions: { canUpload: true, canCreateFolder: false } } });
    expect(storage.status, storage.text).toBe(200);
    expect(storage.body.data.attributes).toMatchObject({ billing_limited: true, restrictions: { canUpload: true, canDownload: false, canCreateFolder: false } });
    expect((await client.get('/api/user')).body.data.meta.restrictions.canUpload).toBe(false);
    await admin.request(`/api/admin/users/${user.id}/storage`, { method: 'PATCH', json: { restrictions: { canCreateFolder: true } } });

    await failPayments(seed, user.id, 1);
    me = (await client.get('/api/user')).body.data;
    expect(me.relationships.failedPayments.data).toHaveLength(4);
    expect(me.meta.restrictions.canUpload).toBe(false);
    expect(await notificationsOf(user.id, 'insufficient-balance')).toHaveLength(3);
    expect(await outstandingFor(seed, user.id)).toEqual({ amountMinor: 3600, currency: 'EUR' });
    const errors = (await client.get('/api/billing/transactions')).body.data.filter((t: { attributes: { status: string } }) => t.attributes.status === 'error');
    expect(errors).toHaveLength(4);

    // Part of it settles the oldest failed payment only: 3 stay open, the account stays limited.
    await recordPayment(seed, { userId: user.id, amountMinor: 1000, currency: 'EUR', driver: 'stripe', reference: newReference(), note: '', purpose: 'outstanding' });
    me = (await client.get('/api/user')).body.data;
    expect(me.relationships.failedPayments.data).toHaveLength(3);
    expect(me.meta.restrictions.canUpload).toBe(false);
    expect(Number((await account(user.id))!.balance_minor)).toBe(100);

    await recordPayment(seed, { userId: user.id, amountMinor: 2700, currency: 'EUR', driver: 'stripe', reference: newReference(), note: '', purpose: 'outstanding' });
    me = (await client.get('/api/user')).body.data;
    expect(me.relationships.failedPayments.data).toEqual([]);
    expect(me.meta.restrictions).toEqual({ canUpload: true, canDownload: false, canCreateFolder: true, canCreateTeamFolder: true });
    expect((await uploadForm(client, 'hello', { filename: 'a.txt' })).status).toBe(201);
    expect(await outstandingFor(seed, user.id)).toBeNull();
    expect(Number((await account(user.id))!.balance_minor)).toBe(100);
  });
});

describe('the admin’s gift credit', () => {
  it('adds to the balance, tells the user and is audited', async () => {
    const { user, client } = await registerUser(server.url);
    const res = await admin.post(`/api/admin/users/${user.id}/credit`, { amount_minor: 1500, currency: 'EUR', note: 'Welcome' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ amount_minor: 1500, currency: 'EUR', balance_minor: 1500 });
    const again = await admin.post(`/api/admin/users/${user.id}/credit`, { amount_minor: 500 });
    expect(again.status, again.text).toBe(201);
    expect(again.body.data.attributes.balance_minor).toBe(2000);
    expect(await notificationsOf(user.id, 'gift')).toHaveLength(2);
    const audit = await seed.db.selectFrom('audit_log').selectAll().where('target_id', '=', user.id).where('action', '=', 'user.credit').execute();
    expect(audit).toHaveLength(2);
    const tx = (await client.get('/api/billing/transactions')).body.data;
    expect(tx[0].attributes).toMatchObject({ type: 'credit', driver: 'system', amount_minor: 500 });
  });

  it('refuses bad amounts, another currency, a user and a signed-out client; nothing changes', async () => {
    const { user, client } = await registerUser(server.url);
    await admin.post(`/api/admin/users/${user.id}/credit`, { amount_minor: 100, currency: 'EUR' });
    for (const body of [{ amount_minor: -5 }, { amount_minor: 0 }, { amount_minor: 1.5 }, { amount_minor: '100' }, {}, { amount_minor: 100, currency: 'eur' }, { amount_minor: 100, extra: 1 }]) {
      const res = await admin.post(`/api/admin/users/${user.id}/credit`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const mismatch = await admin.post(`/api/admin/users/${user.id}/credit`, { amount_minor: 100, currency: 'USD' });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors.currency).toBeDefined();
    const fresh = await registerUser(server.url);
    expect((await admin.post(`/api/admin/users/${fresh.user.id}/credit`, { amount_minor: 100 })).status).toBe(422);
    expect((await admin.post('/api/admin/users/00000000-0000-0000-0000-000000000000/credit', { amount_minor: 100, currency: 'EUR' })).status).toBe(404);
    expect((await client.post(`/api/admin/users/${user.id}/credit`, { amount_minor: 100 })).status).toBe(403);
    expect((await new Client(server.url).post(`/api/admin/users/${user.id}/credit`, { amount_minor: 100 })).status).toBe(401);
    expect(await transactionsOf(user.id)).toHaveLength(1);
    expect(Number((await account(user.id))!.balance_minor)).toBe(100);
    expect(await account(fresh.user.id)).toBeUndefined();
  });
});
