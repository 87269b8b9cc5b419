import { z } from 'zod';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { recordAudit } from '../admin/audit.ts';
import { requireAdmin } from '../admin/guard.ts';
import { changedFields } from '../admin/settings/changes.ts';
import { validationError } from '../http/errors.ts';
import { validate } from '../http/validate.ts';
import { readSecretSetting, secretsSet, writeSecretSettings, type SecretSetting } from '../settings/secrets.ts';
import { getSettings, writeSettings, type Settings } from '../settings/service.ts';

/**
 * /admin/payments (SPEC §2): the billings tab (the company's details printed on invoices) and the
 * payments tab (Stripe, Paystack, PayPal switched on or off with their keys). Secrets are
 * write-only and encrypted at rest (settings/secrets.ts): answers say only whether one is set; a
 * change without one keeps it, '' or null clears it.
 */
export const DRIVERS = ['stripe', 'paystack', 'paypal'] as const;
export type Driver = (typeof DRIVERS)[number];
const DRIVER_NAMES: Record<Driver, string> = { stripe: 'Stripe', paystack: 'Paystack', paypal: 'PayPal' };
const PAYMENT_SECRETS: SecretSetting[] = ['stripe_secret_key', 'stripe_webhook_secret', 'paystack_secret_key', 'paypal_client_secret'];

const PRINTABLE = /^[\x21-\x7e]*$/;
const publicValue = (field: string) =>
  z
    .string({ error: `The ${field} must be text.` })
    .trim()
    .max(255, `The ${field} may not be greater than 255 characters.`)
    .regex(PRINTABLE, `The ${field} may contain only letters, digits and punctuation, without spaces.`)
    .optional();
const secretValue = (field: string) =>
  z
    .string({ error: `The ${field} must be text, or null to remove it.` })
    .trim()
    .max(512, `The ${field} may not be greater than 512 characters.`)
    .regex(PRINTABLE, `The ${field} may contain only letters, digits and punctuation, without spaces.`)
    .nullable()
    .optional();
const flag = z.boolean({ error: 'The enabled field must be true or false.' }).optional();

const PaymentsInput = z.strictObject({
  stripe: z.strictObject({ enabled: flag, public_key: publicValue('publishable key'), secret_key: secretValue('secret key'), webhook_secret: secretValue('webhook signing secret') }).optional(),
  paystack: z.strictObject({ enabled: flag, public_key: publicValue('public key'), secret_key: secretValue('secret key') }).optional(),
  paypal: z.strictObject({ enabled: flag, client_id: publicValue('client id'), client_secret: secretValue('client secret'), webhook_id: publicValue('webhook id') }).optional(),
});

/** ISO 3166 region codes the runtime's ICU data names (a maintained source, not a hand-written table). */
export function countryCodes(): string[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const out: string[] = [];
  for (let a = 65; a <= 90; a += 1) {
    for (let b = 65; b <= 90; b += 1) {
      const code = String.fromCharCode(a, b);
      const name = names.of(code);
      // Unknown codes have no name; reserved ones (ZZ "Unknown Region", EU, UN…) are not countries.
      if (name && !['ZZ', 'EU', 'EZ', 'UN', 'XA', 'XB', 'QO'].includes(code)) out.push(code);
    }
  }
  return out;
}
let countries: Set<string> | undefined;

const text = (field: string, max: number) => z.string({ error: `The ${field} must be text.` }).trim().max(max, `The ${field} may not be greater than ${max} characters.`).optional();
const BillingsInput = z.strictObject({
  name: text('company name', 120),
  address: text('address', 200),
  city: text('city', 100),
  postal_code: text('postal code', 20),
  country: z
    .string({ error: 'The country must be a two-letter country code.' })
    .trim()
    .refine((v) => v === '' || (countries ??= new Set(countryCodes())).has(v), 'Choose a country from the list.')
    .optional(),
  vat_id: text('VAT id', 40).refine((v) => v === undefined || /^[A-Za-z0-9 .-]*$/.test(v), 'The VAT id may contain only letters, digits, spaces, dots and hyphens.'),
  email: z.union([z.literal(''), z.email('Enter a valid email address.').max(254, 'The email may not be greater than 254 characters.')], { error: 'Enter a valid email address.' }).optional(),
  phone: text('phone', 40).refine((v) => v === undefined || /^[0-9+()\- ./]*$/.test(v), 'The phone number may contain only digits, spaces and + ( ) - . /'),
});

function presentPayments(s: Settings, set: Record<SecretSetting, boolean>) {
  return {
    stripe: { enabled: s.payment_drivers.stripe, public_key: s.stripe_public_key, secret_key: { set: set.stripe_secret_key }, webhook_secret: { set: set.stripe_webhook_secret } },
    paystack: { enabled: s.payment_drivers.paystack, public_key: s.paystack_public_key, secret_key: { set: set.paystack_secret_key } },
    paypal: { enabled: s.payment_drivers.paypal, client_id: s.paypal_client_id, client_secret: { set: set.paypal_client_secret }, webhook_id: s.paypal_webhook_id },
  };
}
type PaymentsView = ReturnType<typeof presentPayments>;

export async function getPaymentSettings(ctx: AppContext, user: User) {
  requireAdmin(user);
  const [s, set] = await Promise.all([getSettings(ctx), secretsSet(ctx.db, PAYMENT_SECRETS)]);
  return { data: presentPayments(s, set) };
}

export async function putPaymentSettings(ctx: AppContext, user: User, body: unknown) {
  requireAdmin(user);
  const input = validate(PaymentsInput, body);
  await ctx.db.transaction().execute(async (trx) => {
    const before = presentPayments(await getSettings({ ...ctx, db: trx }), await secretsSet(trx, PAYMENT_SECRETS));
    const after: PaymentsView = structuredClone(before);
    const secrets: Partial<Record<SecretSetting, string | null>> = {};
    const secret = (value: string | null | undefined, setting: SecretSetting, target: { set: boolean }) => {
      if (value === undefined) return;
      secrets[setting] = value;
      target.set = !!value;
    };
    const { stripe, paystack, paypal } = input;
    if (stripe?.enabled !== undefined) after.stripe.enabled = stripe.enabled;
    if (stripe?.public_key !== undefined) after.stripe.public_key = stripe.public_key;
    secret(stripe?.secret_key, 'stripe_secret_key', after.stripe.secret_key);
    secret(stripe?.webhook_secret, 'stripe_webhook_secret', after.stripe.webhook_secret);
    if (paystack?.enabled !== undefined) after.paystack.enabled = paystack.enabled;
    if (paystack?.public_key !== undefined) after.paystack.public_key = paystack.public_key;
    secret(paystack?.secret_key, 'paystack_secret_key', after.paystack.secret_key);
    if (paypal?.enabled !== undefined) after.paypal.enabled = paypal.enabled;
    if (paypal?.client_id !== undefined) after.paypal.client_id = paypal.client_id;
    if (paypal?.webhook_id !== undefined) after.paypal.webhook_id = paypal.webhook_id;
    secret(paypal?.client_secret, 'paypal_client_secret', after.paypal.client_secret);
    assertUsable(after);

    await writeSettings(trx, {
      payment_drivers: { stripe: after.stripe.enabled, paystack: after.paystack.enabled, paypal: after.paypal.enabled },
      stripe_public_key: after.stripe.public_key,
      paystack_public_key: after.paystack.public_key,
      paypal_client_id: after.paypal.client_id,
      paypal_webhook_id: after.paypal.webhook_id,
    });
    await writeSecretSettings(ctx, trx, secrets, PAYMENT_SECRETS);
    const changes = changedFields(auditView(before), auditView(after, secrets));
    if (changes) await recordAudit(ctx, trx, user, { action: 'setting.update', target_type: 'setting', target_id: 'payments', target_label: 'Payments', ...changes });
  });
  return getPaymentSettings(ctx, user);
}

/** A provider is switched on only with every key it needs: refused (422, nothing saved) otherwise. */
function assertUsable(after: PaymentsView): void {
  const errors: Record<string, string[]> = {};
  const need = (driver: Driver, field: string, ok: boolean, what: string) => {
    if (!ok) errors[`${driver}.${field}`] = [`Enter the ${what} to turn ${DRIVER_NAMES[driver]} on.`];
  };
  if (after.stripe.enabled) {
    need('stripe', 'public_key', !!after.stripe.public_key, 'publishable key');
    need('stripe', 'secret_key', after.stripe.secret_key.set, 'secret key');
    need('stripe', 'webhook_secret', after.stripe.webhook_secret.set, 'webhook signing secret');
  }
  if (after.paystack.enabled) {
    need('paystack', 'public_key', !!after.paystack.public_key, 'public key');
    need('paystack', 'secret_key', after.paystack.secret_key.set, 'secret key');
  }
  if (after.paypal.enabled) {
    need('paypal', 'client_id', !!after.paypal.client_id, 'client id');
    need('paypal', 'client_secret', after.paypal.client_secret.set, 'client secret');
    need('paypal', 'webhook_id', !!after.paypal.webhook_id, 'webhook id');
  }
  if (Object.keys(errors).length) throw validationError(errors);
}

function auditView(view: PaymentsView, given: Partial<Record<SecretSetting, string | null>> = {}): Record<string, unknown> {
  const secret = (isSet: boolean, setting: SecretSetting) => (given[setting] ? 'changed' : isSet ? 'set' : '');
  return {
    'stripe.enabled': view.stripe.enabled,
    'stripe.public_key': view.stripe.public_key,
    'stripe.secret_key': secret(view.stripe.secret_key.set, 'stripe_secret_key'),
    'stripe.webhook_secret': secret(view.stripe.webhook_secret.set, 'stripe_webhook_secret'),
    'paystack.enabled': view.paystack.enabled,
    'paystack.public_key': view.paystack.public_key,
    'paystack.secret_key': secret(view.paystack.secret_key.set, 'paystack_secret_key'),
    'paypal.enabled': view.paypal.enabled,
    'paypal.client_id': view.paypal.client_id,
    'paypal.client_secret': secret(view.paypal.client_secret.set, 'paypal_client_secret'),
    'paypal.webhook_id': view.paypal.webhook_id,
  };
}

export async function getBillingDetails(ctx: AppContext, user: User) {
  requireAdmin(user);
  return { data: (await getSettings(ctx)).billing_details };
}

export async function putBillingDetails(ctx: AppContext, user: User, body: unknown) {
  requireAdmin(user);
  const input = validate(BillingsInput, body);
  await ctx.db.transaction().execute(async (trx) => {
    const before = (await getSettings({ ...ctx, db: trx })).billing_details;
    const after = { ...before, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
    await writeSettings(trx, { billing_details: after });
    const changes = changedFields(before, after);
    if (changes) await recordAudit(ctx, trx, user, { action: 'setting.update', target_type: 'setting', target_id: 'billings', target_label: 'Billing details', ...changes });
  });
  return getBillingDetails(ctx, user);
}

/** What a gateway needs to talk to its provider; null when the admin has it switched off. */
export interface DriverKeys {
  stripe: { publicKey: string; secretKey: string; webhookSecret: string };
  paystack: { publicKey: string; secretKey: string };
  paypal: { clientId: string; clientSecret: string; webhookId: string };
}

export async function driverKeys<D extends Driver>(ctx: AppContext, driver: D): Promise<DriverKeys[D] | null> {
  const s = await getSettings(ctx);
  if (!s.payment_drivers[driver]) return null;
  if (driver === 'stripe') {
    return { publicKey: s.stripe_public_key, secretKey: await readSecretSetting(ctx, 'stripe_secret_key'), webhookSecret: await readSecretSetting(ctx, 'stripe_webhook_secret') } as DriverKeys[D];
  }
  if (driver === 'paystack') return { publicKey: s.paystack_public_key, secretKey: await readSecretSetting(ctx, 'paystack_secret_key') } as DriverKeys[D];
  return { clientId: s.paypal_client_id, clientSecret: await readSecretSetting(ctx, 'paypal_client_secret'), webhookId: s.paypal_webhook_id } as DriverKeys[D];
}

export async function enabledDrivers(ctx: AppContext): Promise<Driver[]> {
  const s = await getSettings(ctx);
  return DRIVERS.filter((d) => s.payment_drivers[d]);
}
