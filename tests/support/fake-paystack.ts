import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Paystack's API (https://paystack.com/docs/api/): transaction/initialize, plans and
 * subscriptions, each answering `{ status, message, data }`. Webhooks are signed as Paystack signs
 * them: `x-paystack-signature` is the HMAC-SHA512 (hex) of the raw body under the secret key.
 */
type Obj = Record<string, any>;

export interface FakePaystack {
  url: string;
  readonly secretKey: string;
  readonly publicKey: string;
  webhookUrl: string;
  /** Initialized transactions by reference (the body the product sent). */
  readonly transactions: Map<string, Obj>;
  /** Every API request as received (method and path). */
  readonly requests: string[];
  sendEvent(event: string, data: Obj, options?: { signature?: string | null; secret?: string }): Promise<{ status: number; body: any }>;
  /** The charge.success event for an initialized transaction (amount as initialized unless given). */
  chargeSuccess(reference: string, options?: { amount?: number }): Obj;
  stop(): Promise<void>;
}

export const signPaystack = (body: string, secret: string) => createHmac('sha512', secret).update(body).digest('hex');

export async function startFakePaystack(): Promise<FakePaystack> {
  const transactions = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const requests: string[] = [];
  const fake = { requests, url: '', secretKey: `sk_test_${randomBytes(12).toString('hex')}`, publicKey: `pk_test_${randomBytes(12).toString('hex')}`, webhookUrl: '', transactions } as FakePaystack;

  fake.sendEvent = async (event, data, options = {}) => {
    const body = JSON.stringify({ event, data });
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    const signature = options.signature === undefined ? signPaystack(body, options.secret ?? fake.secretKey) : options.signature;
    if (signature !== null) headers['x-paystack-signature'] = signature;
    const res = await fetch(fake.webhookUrl, { method: 'POST', headers, body });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  fake.chargeSuccess = (reference, options = {}) => {
    const t = transactions.get(reference);
    if (!t) throw new Error(`fake paystack: no transaction ${reference}`);
    return {
      id: Number.parseInt(randomBytes(4).toString('hex'), 16),
      status: 'success',
      reference,
      amount: options.amount ?? t.amount,
      currency: t.currency ?? 'NGN',
      paid_at: new Date().toISOString(),
      metadata: t.metadata,
      customer: { email: t.email, customer_code: `CUS_${Buffer.from(t.email).toString('hex').slice(0, 12)}` },
      plan: t.plan ? { plan_code: t.plan } : {},
    };
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${fake.secretKey}`) return json(401, { status: false, message: 'Invalid key' });
    const raw = Buffer.concat(chunks).toString('utf8');
    const body: Obj = raw ? JSON.parse(raw) : {};
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(`${req.method} ${path}`);
    if (req.method === 'POST' && path === '/transaction/initialize') {
      if (!body.email || !Number.isInteger(body.amount) || !body.reference) return json(400, { status: false, message: 'Invalid parameters' });
      if (transactions.has(body.reference)) return json(400, { status: false, message: 'Duplicate Transaction Reference' });
      const access_code = randomBytes(8).toString('hex');
      transactions.set(body.reference, body);
      return json(200, { status: true, message: 'Authorization URL created', data: { authorization_url: `${fake.url}/pay/${access_code}`, access_code, reference: body.reference } });
    }
    if (req.method === 'POST' && path === '/plan') {
      return json(200, { status: true, message: 'Plan created', data: { ...body, plan_code: `PLN_${randomBytes(6).toString('hex')}` } });
    }
    const sub = /^\/subscription\/([\w]+)$/.exec(path);
    if (req.method === 'GET' && sub) {
      const found = subscriptions.get(sub[1]!) ?? { subscription_code: sub[1], email_token: `tok_${sub[1]}` };
      return json(200, { status: true, message: 'Subscription retrieved', data: found });
    }
    if (req.method === 'POST' && (path === '/subscription/disable' || path === '/subscription/enable')) {
      return json(200, { status: true, message: path.endsWith('disable') ? 'Subscription disabled successfully' : 'Subscription enabled successfully' });
    }
    return json(404, { status: false, message: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.stop = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}
