import { createHash, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for PayPal's REST API (https://developer.paypal.com/api/rest/): the OAuth token,
 * Orders v2 (create, capture), the webhook signature verification call, and enough of
 * Catalog/Billing subscriptions for a checkout. PayPal signs webhooks with its certificate and
 * merchants ask PayPal to verify them; here the fake signs each delivery with a key of its own and
 * answers `POST /v1/notifications/verify-webhook-signature` SUCCESS only for its own signatures
 * over that exact event and the configured webhook id.
 */
type Obj = Record<string, any>;

export interface FakePaypal {
  url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly webhookId: string;
  webhookUrl: string;
  readonly orders: Map<string, Obj>;
  readonly captured: string[];
  /** Subscriptions created through the API, by id (the body the product sent). */
  readonly subscriptions: Map<string, Obj>;
  /** Actions taken on subscriptions: `${id} suspend`, `${id} activate`, … */
  readonly subscriptionActions: string[];
  sendEvent(eventType: string, resource: Obj, options?: { id?: string; tamper?: boolean; omitHeaders?: boolean }): Promise<{ status: number; body: any }>;
  /** The PAYMENT.CAPTURE.COMPLETED resource for a created order. */
  captureOf(orderId: string, options?: { value?: string }): Obj;
  stop(): Promise<void>;
}

export async function startFakePaypal(): Promise<FakePaypal> {
  const signingKey = randomBytes(32);
  const orders = new Map<string, Obj>();
  const captured: string[] = [];
  const tokens = new Set<string>();
  const subscriptions = new Map<string, Obj>();
  const subscriptionActions: string[] = [];
  const fake = { url: '', clientId: `client-${randomBytes(6).toString('hex')}`, clientSecret: randomBytes(16).toString('hex'), webhookId: `WH-${randomBytes(6).toString('hex').toUpperCase()}`, webhookUrl: '', orders, captured, subscriptions, subscriptionActions } as FakePaypal;
  const sign = (transmissionId: string, time: string, webhookId: string, event: unknown) =>
    createHmac('sha256', signingKey).update(`${transmissionId}|${time}|${webhookId}|${createHash('sha256').update(JSON.stringify(event)).digest('hex')}`).digest('base64');

  fake.sendEvent = async (eventType, resource, options = {}) => {
    const event = { id: options.id ?? `WH-EVT-${randomBytes(6).toString('hex')}`, event_version: '1.0', create_time: new Date().toISOString(), resource_type: 'checkout-order', event_type: eventType, resource };
    const body = JSON.stringify(event);
    const transmissionId = randomBytes(8).toString('hex');
    const time = new Date().toISOString();
    const signature = sign(transmissionId, time, fake.webhookId, options.tamper ? { ...event, tampered: true } : event);
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (!options.omitHeaders) {
      Object.assign(headers, {
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': `${fake.url}/v1/notifications/certs/CERT-fake`,
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-sig': signature,
        'paypal-transmission-time': time,
      });
    }
    const res = await fetch(fake.webhookUrl, { method: 'POST', headers, body });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  fake.captureOf = (orderId, options = {}) => {
    const unit = orders.get(orderId)!.purchase_units[0];
    return { id: `CAP-${randomBytes(6).toString('hex')}`, status: 'COMPLETED', custom_id: unit.custom_id, amount: { currency_code: unit.amount.currency_code, value: options.value ?? unit.amount.value }, supplementary_data: { related_ids: { order_id: orderId } } };
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    // The approval page a buyer's browser is sent to (the order's payer-action link). Approving sends
    // CHECKOUT.ORDER.APPROVED as PayPal does; once the merchant has captured the order (its answer to
    // that webhook), PAYMENT.CAPTURE.COMPLETED follows; then the buyer goes back to the return_url.
    if (path === '/checkoutnow' || path === '/checkoutnow/approve') {
      const params = new URLSearchParams(req.method === 'POST' ? raw : new URL(req.url ?? '/', 'http://x').search);
      const order = orders.get(params.get('token') ?? '');
      if (!order) return json(404, { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.' });
      const unit = order.purchase_units[0];
      const back = order.payment_source?.paypal?.experience_context?.return_url ?? '/';
      if (req.method === 'POST' && path === '/checkoutnow/approve') {
        order.status = 'APPROVED';
        await fake.sendEvent('CHECKOUT.ORDER.APPROVED', { id: order.id, status: 'APPROVED', intent: 'CAPTURE', purchase_units: order.purchase_units });
        if (captured.includes(order.id)) await fake.sendEvent('PAYMENT.CAPTURE.COMPLETED', fake.captureOf(order.id));
        res.writeHead(303, { Location: back });
        return res.end();
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      return res.end(
        `<!doctype html><html lang="en"><head><title>Fake PayPal</title></head><body><main><h1>Fake PayPal</h1><p>Pay ${unit.amount.value} ${unit.amount.currency_code}</p><form method="post" action="/checkoutnow/approve"><input type="hidden" name="token" value="${order.id}"><button type="submit">Pay Now</button></form><a href="${back}">Cancel and return</a></main></body></html>`,
      );
    }
    if (req.method === 'POST' && path === '/v1/oauth2/token') {
      if (req.headers.authorization !== `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64')}`) return json(401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
      const token = `A21AA${randomBytes(12).toString('hex')}`;
      tokens.add(token);
      return json(200, { scope: 'https://uri.paypal.com/services/payments', access_token: token, token_type: 'Bearer', expires_in: 32400 });
    }
    if (!tokens.has((req.headers.authorization ?? '').replace(/^Bearer /, ''))) return json(401, { name: 'AUTHENTICATION_FAILURE', message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.' });
    const body: Obj = raw ? JSON.parse(raw) : {};
    if (req.method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
      const ok = body.webhook_id === fake.webhookId && body.transmission_sig === sign(body.transmission_id, body.transmission_time, body.webhook_id, body.webhook_event);
      return json(200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
    }
    if (req.method === 'POST' && path === '/v2/checkout/orders') {
      const order = { id: randomBytes(8).toString('hex').toUpperCase(), status: 'PAYER_ACTION_REQUIRED', ...body };
      orders.set(order.id, order);
      return json(200, { id: order.id, status: order.status, links: [{ href: `${fake.url}/checkoutnow?token=${order.id}`, rel: 'payer-action', method: 'GET' }] });
    }
    const capture = /^\/v2\/checkout\/orders\/(\w+)\/capture$/.exec(path);
    if (req.method === 'POST' && capture) {
      const order = orders.get(capture[1]!);
      if (!order) return json(404, { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.' });
      if (captured.includes(order.id)) return json(422, { name: 'UNPROCESSABLE_ENTITY', message: 'ORDER_ALREADY_CAPTURED' });
      captured.push(order.id);
      return json(201, { id: order.id, status: 'COMPLETED' });
    }
    if (req.method === 'POST' && path === '/v1/catalogs/products') return json(201, { id: `PROD-${randomBytes(6).toString('hex')}`, ...body });
    if (req.method === 'POST' && path === '/v1/billing/plans') return json(201, { id: `P-${randomBytes(8).toString('hex')}`, status: 'ACTIVE', ...body });
    if (req.method === 'POST' && path === '/v1/billing/subscriptions') {
      const sid = `I-${randomBytes(6).toString('hex').toUpperCase()}`;
      subscriptions.set(sid, body);
      return json(201, { id: sid, status: 'APPROVAL_PENDING', links: [{ href: `${fake.url}/webapps/billing/subscriptions?ba_token=${sid}`, rel: 'approve', method: 'GET' }] });
    }
    const action = /^\/v1\/billing\/subscriptions\/([\w-]+)\/(suspend|activate|revise|cancel)$/.exec(path);
    if (req.method === 'POST' && action) {
      subscriptionActions.push(`${action[1]} ${action[2]}`);
      res.writeHead(204);
      return res.end();
    }
    return json(404, { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.stop = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}
