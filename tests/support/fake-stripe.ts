import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Stripe's API (https://docs.stripe.com/api), answering the calls the product makes
 * through the `stripe` SDK (form-encoded requests, JSON answers): prices, Checkout Sessions,
 * subscriptions. It serves a hosted checkout page too (`/checkout/{session}`): its Pay button
 * "charges the card" and delivers the webhooks Stripe would, signed as Stripe signs them
 * (`Stripe-Signature: t=<unix>,v1=<HMAC-SHA256 of "t.body" under the endpoint secret>`), then sends
 * the browser back to the session's success_url.
 */
export interface FakeStripe {
  url: string;
  readonly secretKey: string;
  readonly publicKey: string;
  readonly webhookSecret: string;
  /** Where webhooks go: set it once the app's address is known. */
  webhookUrl: string;
  readonly sessions: Map<string, Obj>;
  readonly subscriptions: Map<string, Obj>;
  /** Every API request as received (method, path, parsed form). */
  readonly requests: Array<{ method: string; path: string; body: Obj }>;
  /** Posts an event with the given type and object, signed (or with `signature` as given, null for none). */
  sendEvent(type: string, object: Obj, options?: { id?: string; signature?: string | null; secret?: string; timestamp?: number }): Promise<{ status: number; body: any }>;
  /** The invoice.paid event Stripe sends for a subscription's period. */
  invoicePaid(subscriptionId: string, options?: { amount?: number; periodStart?: number; periodEnd?: number; invoiceId?: string }): Obj;
  /** The invoice.payment_failed event's invoice Stripe sends when a renewal's charge is declined (attempt 1, 2, …). */
  invoicePaymentFailed(subscriptionId: string, options?: { attempt?: number; invoiceId?: string }): Obj;
  stop(): Promise<void>;
}

type Obj = Record<string, any>;

export function signStripe(body: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** Stripe's form encoding (`a[b][0][c]=v`) back into objects and arrays. */
export function parseStripeForm(text: string): Obj {
  const out: Obj = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Obj = out;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = node[part] ??= /^\d+$/.test(path[i + 1]!) ? [] : {};
    });
  }
  return out;
}

const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);
const MONTH = 30 * 24 * 3600;

export async function startFakeStripe(): Promise<FakeStripe> {
  const prices = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const requests: FakeStripe['requests'] = [];
  const fake = {
    url: '',
    secretKey: `sk_test_${randomBytes(12).toString('hex')}`,
    publicKey: `pk_test_${randomBytes(12).toString('hex')}`,
    webhookSecret: `whsec_${randomBytes(16).toString('hex')}`,
    webhookUrl: '',
    sessions,
    subscriptions,
    requests,
  } as FakeStripe;

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const stripeError = (res: http.ServerResponse, status: number, message: string) => json(res, status, { error: { type: 'invalid_request_error', message } });

  fake.sendEvent = async (type, object, options = {}) => {
    const event = { id: options.id ?? id('evt'), object: 'event', type, created: now(), livemode: false, api_version: '2026-10-28.endive', data: { object } };
    const body = JSON.stringify(event);
    const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' };
    const signature = options.signature === undefined ? signStripe(body, options.secret ?? fake.webhookSecret, options.timestamp) : options.signature;
    if (signature !== null) headers['Stripe-Signature'] = signature;
    const res = await fetch(fake.webhookUrl, { method: 'POST', headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* keep text */
    }
    return { status: res.status, body: parsed };
  };

  fake.invoicePaid = (subscriptionId, options = {}) => {
    const sub = subscriptions.get(subscriptionId) ?? { id: subscriptionId, metadata: {}, items: { data: [{ price: { unit_amount: options.amount ?? 0, currency: 'usd' } }] } };
    const start = options.periodStart ?? now();
    const end = options.periodEnd ?? start + MONTH;
    const price = sub.items.data[0].price;
    return {
      id: options.invoiceId ?? id('in'),
      object: 'invoice',
      status: 'paid',
      amount_paid: options.amount ?? price.unit_amount,
      amount_due: options.amount ?? price.unit_amount,
      currency: price.currency,
      billing_reason: 'subscription_cycle',
      parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId, metadata: sub.metadata } },
      lines: { object: 'list', data: [{ period: { start, end }, amount: options.amount ?? price.unit_amount }] },
    };
  };

  fake.invoicePaymentFailed = (subscriptionId, options = {}) => {
    const paid = fake.invoicePaid(subscriptionId, { invoiceId: options.invoiceId });
    return { ...paid, status: 'open', amount_paid: 0, attempt_count: options.attempt ?? 1, attempted: true, next_payment_attempt: now() + 3 * 24 * 3600 };
  };

  async function pay(session: Obj): Promise<void> {
    session.status = 'complete';
    session.payment_status = 'paid';
    if (session.mode === 'payment') {
      await fake.sendEvent('checkout.session.completed', session);
      return;
    }
    const price = prices.get(session.line_items[0].price)!;
    const subId = id('sub');
    const start = now();
    const sub = {
      id: subId,
      object: 'subscription',
      status: 'active',
      cancel_at_period_end: false,
      metadata: session.subscription_data?.metadata ?? {},
      items: { object: 'list', data: [{ id: id('si'), price, current_period_start: start, current_period_end: start + MONTH }] },
    };
    subscriptions.set(subId, sub);
    session.subscription = subId;
    await fake.sendEvent('checkout.session.completed', session);
    await fake.sendEvent('invoice.paid', fake.invoicePaid(subId, { periodStart: start, periodEnd: start + MONTH }));
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;

    // The hosted checkout page a browser is sent to.
    const page = /^\/checkout\/(cs_[a-f0-9]+)(\/pay)?$/.exec(path);
    if (page) {
      const session = sessions.get(page[1]!);
      if (!session) return stripeError(res, 404, 'No such checkout session.');
      if (page[2] && req.method === 'POST') {
        await pay(session);
        res.writeHead(303, { Location: session.success_url });
        return res.end();
      }
      const amount = session.mode === 'payment' ? session.line_items[0].price_data.unit_amount : prices.get(session.line_items[0].price)?.unit_amount;
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      return res.end(
        `<!doctype html><html lang="en"><head><title>Fake Stripe Checkout</title></head><body><main><h1>Fake Stripe Checkout</h1><p>Amount: ${amount} (${session.mode})</p><form method="post" action="/checkout/${session.id}/pay"><button type="submit">Pay</button></form><a href="${session.cancel_url}">Cancel</a></main></body></html>`,
      );
    }

    if (req.headers.authorization !== `Bearer ${fake.secretKey}`) return json(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    const body = parseStripeForm(raw);
    requests.push({ method: req.method ?? 'GET', path, body });

    if (req.method === 'POST' && path === '/v1/prices') {
      const price = { id: id('price'), object: 'price', currency: body.currency, unit_amount: Number(body.unit_amount), recurring: body.recurring, metadata: body.metadata ?? {} };
      prices.set(price.id, price);
      return json(res, 200, price);
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const session: Obj = { id: id('cs'), object: 'checkout.session', ...body, status: 'open', payment_status: 'unpaid', currency: body.currency ?? body.line_items?.[0]?.price_data?.currency ?? 'usd' };
      if (body.mode === 'payment') session.amount_total = Number(body.line_items[0].price_data.unit_amount);
      else {
        const price = prices.get(body.line_items?.[0]?.price);
        if (!price) return stripeError(res, 400, 'No such price.');
        session.amount_total = price.unit_amount;
        session.currency = price.currency;
      }
      session.url = `${fake.url}/checkout/${session.id}`;
      sessions.set(session.id, session);
      return json(res, 200, session);
    }
    // Paying an invoice; the product only ever marks one paid out of band (settled through us).
    const invoicePay = /^\/v1\/invoices\/([\w]+)\/pay$/.exec(path);
    if (req.method === 'POST' && invoicePay) {
      if (body.paid_out_of_band !== 'true') return stripeError(res, 400, 'This fake pays invoices out of band only.');
      return json(res, 200, { id: invoicePay[1], object: 'invoice', status: 'paid', paid_out_of_band: true });
    }
    const subPath = /^\/v1\/subscriptions\/([\w]+)$/.exec(path);
    if (subPath) {
      const sub = subscriptions.get(subPath[1]!);
      if (!sub) return stripeError(res, 404, `No such subscription: '${subPath[1]}'`);
      if (req.method === 'POST') {
        if (body.cancel_at_period_end !== undefined) sub.cancel_at_period_end = body.cancel_at_period_end === 'true';
        if (body.items?.[0]?.price) {
          const price = prices.get(body.items[0].price);
          if (!price) return stripeError(res, 400, 'No such price.');
          sub.items.data[0].price = price;
        }
        if (body.metadata) sub.metadata = { ...sub.metadata, ...body.metadata };
      }
      return json(res, 200, sub);
    }
    return stripeError(res, 404, `Unrecognized request URL (${req.method}: ${path}).`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.stop = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}
