import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../src/server/context.ts';
import { Client } from './client.ts';
import { startFakePaypal, type FakePaypal } from './fake-paypal.ts';
import { startFakePaystack, type FakePaystack } from './fake-paystack.ts';
import { startFakeStripe, type FakeStripe } from './fake-stripe.ts';
import { startServer, type RunningServer } from './server.ts';

export interface PayWorld {
  server: RunningServer;
  admin: Client;
  stripe: FakeStripe;
  paystack: FakePaystack;
  paypal: FakePaypal;
  stop(): Promise<void>;
}

export const PAY_ADMIN = { email: 'billing.owner@example.test', password: 'owner password 1' };

/** The three fakes, a server pointed at them, and an admin who switched all three providers on. */
export async function startPayWorld(): Promise<PayWorld> {
  const [stripe, paystack, paypal] = await Promise.all([startFakeStripe(), startFakePaystack(), startFakePaypal()]);
  const server = await startServer({
    env: { ADMIN_EMAIL: PAY_ADMIN.email, ADMIN_PASSWORD: PAY_ADMIN.password, ADMIN_NAME: 'Owner', STRIPE_API_BASE: stripe.url, PAYSTACK_API_BASE: paystack.url, PAYPAL_API_BASE: paypal.url },
  });
  stripe.webhookUrl = `${server.url}/api/webhooks/stripe`;
  paystack.webhookUrl = `${server.url}/api/webhooks/paystack`;
  paypal.webhookUrl = `${server.url}/api/webhooks/paypal`;
  const admin = new Client(server.url);
  const login = await admin.post('/login', PAY_ADMIN);
  if (login.status !== 200) throw new Error(`admin sign-in failed: ${login.status}`);
  const put = await admin.request('/api/admin/payments/payments', {
    method: 'PUT',
    json: {
      stripe: { enabled: true, public_key: stripe.publicKey, secret_key: stripe.secretKey, webhook_secret: stripe.webhookSecret },
      paystack: { enabled: true, public_key: paystack.publicKey, secret_key: paystack.secretKey },
      paypal: { enabled: true, client_id: paypal.clientId, client_secret: paypal.clientSecret, webhook_id: paypal.webhookId },
    },
  });
  if (put.status !== 200) throw new Error(`payment settings failed: ${put.status} ${put.text}`);
  return {
    server,
    admin,
    stripe,
    paystack,
    paypal,
    async stop() {
      await server.stop();
      await Promise.all([stripe.stop(), paystack.stop(), paypal.stop()]);
    },
  };
}

/** A fixed plan, written as the PLANS admin screens would. */
export async function insertFixedPlan(ctx: AppContext, values: { name?: string; amount_minor?: number; currency?: string; storage_bytes?: number; status?: 'active' | 'archived'; interval?: 'month' | 'year' } = {}): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await ctx.db
    .insertInto('plans')
    .values({
      id,
      type: 'fixed',
      name: values.name ?? `Plan ${id.slice(0, 6)}`,
      description: '',
      status: values.status ?? 'active',
      currency: values.currency ?? 'USD',
      interval: values.interval ?? 'month',
      amount_minor: values.amount_minor ?? 500,
      storage_bytes: values.storage_bytes ?? 1024 ** 3,
      max_team_members: 5,
      storage_gb_day_micros: null,
      bandwidth_gb_micros: null,
      member_day_micros: null,
      flat_fee_minor: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** Follows a fake Stripe checkout URL and presses Pay (as the buyer's browser would). */
export async function payStripeCheckout(url: string): Promise<string | null> {
  const res = await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' });
  if (res.status !== 303) throw new Error(`fake checkout answered ${res.status}: ${await res.text()}`);
  return res.headers.get('location');
}
