import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/server/context.ts';
import { createUser } from '../../src/server/auth/service.ts';
import { Client, uniqueEmail } from '../support/client.ts';
import { fakeBotCheckEnv, fakeToken, startFakeBotCheck, type FakeBotCheck } from '../support/fake-bot-check.ts';
import { seedContext } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';

/**
 * The score-based bot check on the four public forms (sign-in, sign-up, forgotten password,
 * contact), against a local stand-in for the provider (tests/support/fake-bot-check.ts), switched
 * on by the admin through the settings API.
 */
const ADMIN = { email: 'bot-admin@example.test', password: 'bot check admin password' };
const MEMBER = { name: 'Mia Member', email: 'mia.member@example.test', password: 'mia member passphrase' };
const REFUSED = 'The bot check failed. Reload the page and try again.';

let fake: FakeBotCheck;
let server: RunningServer;
let seed: AppContext;
let admin: Client;

beforeAll(async () => {
  fake = await startFakeBotCheck();
  server = await startServer({ env: { ...fakeBotCheckEnv(fake), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  seed = await seedContext(server);
  await createUser(seed, { ...MEMBER, verified: true });
  admin = new Client(server.url);
  expect((await admin.post('/login', ADMIN)).status).toBe(200);
  const on = await admin.request('/api/admin/settings/sign-in', { method: 'PUT', json: { recaptcha: { enabled: true, site_key: fake.siteKey, secret: fake.secret, min_score: 0.5 } } });
  expect(on.status, on.text).toBe(200);
});
afterAll(async () => {
  await seed?.db.destroy();
  await server?.stop();
  await fake?.stop();
});

const outbox = () => {
  const file = path.join(server.dataDir, 'mail', 'outbox.jsonl');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, string>) : [];
};
const html = (client: Client, p: string) => client.request(p, { method: 'GET', headers: { Accept: 'text/html' }, xrw: false });
const resetRows = async () => (await seed.db.selectFrom('password_resets').select('token_hash').execute()).length;
const userCount = async () => Number((await seed.db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

const mailsTo = (to: string, subject: RegExp) => outbox().filter((m) => m.to === to && subject.test(m.subject ?? '')).length;

/** Waits until more than `before` such mails are out: the server sends them in the background (a state, not a time). */
async function nextMail(to: string, subject: RegExp, before: number): Promise<void> {
  while (mailsTo(to, subject) <= before) await new Promise((resolve) => setTimeout(resolve, 25));
}

interface Form {
  name: string;
  action: string;
  route: string;
  page: string;
  okStatus: number;
  body: () => Record<string, string>;
  /** A snapshot of everything the form changes, taken before and after a refusal. */
  state: (client: Client, body: Record<string, string>) => Promise<unknown>;
  /** The mail a successful post sends. */
  mail: { to: (body: Record<string, string>) => string; subject: RegExp } | null;
}

const contactMails = () => outbox().filter((m) => m.subject?.startsWith('Contact form')).length;

const FORMS: Form[] = [
  {
    name: 'sign-in',
    action: 'login',
    route: '/login',
    page: '/sign-in',
    okStatus: 200,
    body: () => ({ email: MEMBER.email, password: MEMBER.password }),
    state: async (client) => ({ cookies: [...client.cookies.keys()].filter((name) => name !== 'flash'), me: (await client.get('/api/user')).status, sessions: Number((await seed.db.selectFrom('sessions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n) }),
    mail: null,
  },
  {
    name: 'sign-up',
    action: 'signup',
    route: '/register',
    page: '/sign-up',
    okStatus: 202,
    body: () => ({ name: 'Sam Signup', email: uniqueEmail('bot-signup'), password: 'a fresh sign-up passphrase', password_confirmation: 'a fresh sign-up passphrase' }),
    state: async (_, body) => ({ users: await userCount(), account: await seed.db.selectFrom('users').select('id').where('email', '=', body.email!).executeTakeFirst(), mails: outbox().filter((m) => m.to === body.email).length }),
    mail: { to: (body) => body.email!, subject: /^Confirm your email/ },
  },
  {
    name: 'forgotten password',
    action: 'forgot_password',
    route: '/forgot-password',
    page: '/forgotten-password',
    okStatus: 200,
    body: () => ({ email: MEMBER.email }),
    state: async () => ({ resets: await resetRows(), mails: outbox().filter((m) => m.to === MEMBER.email).length }),
    mail: { to: () => MEMBER.email, subject: /^Reset your/ },
  },
  {
    name: 'contact',
    action: 'contact',
    route: '/contact',
    page: '/contact-us',
    okStatus: 201,
    body: () => ({ name: 'Vera Visitor', email: 'vera@example.test', message: 'A question about plans.' }),
    state: async () => ({ contactMails: contactMails() }),
    mail: { to: () => ADMIN.email, subject: /^Contact form/ },
  },
];

describe.each(FORMS)('the $name form with the bot check on', (form) => {
  const refusals: Array<[string, (f: Form) => string | undefined]> = [
    ['no token', () => undefined],
    ['an empty token', () => ''],
    ['an expired token', (f) => fakeToken({ action: f.action, score: 0.9, ageSeconds: 150 })],
    ['a token for another action', (f) => fakeToken({ action: f.action === 'login' ? 'signup' : 'login', score: 0.9 })],
    ['a low score', (f) => fakeToken({ action: f.action, score: 0.3 })],
    ['a token from another host', (f) => fakeToken({ action: f.action, score: 0.9, hostname: 'evil.example' })],
    ['a token the provider does not know', (f) => fakeToken({ action: f.action, score: 0.9, success: false })],
    ['a token not from the provider', () => 'made-up-token'],
  ];

  it.each(refusals)('refuses %s with 422 and the one message, changing nothing', async (_, token) => {
    const client = new Client(server.url);
    const t = token(form);
    const body = form.body();
    const before = await form.state(client, body);
    const res = await client.post(form.route, { ...body, ...(t === undefined ? {} : { recaptcha_token: t }) });
    expect(res.status, res.text).toBe(422);
    expect(res.body).toEqual({ message: REFUSED, errors: { recaptcha_token: [REFUSED] } });
    expect(res.text).not.toMatch(/score|0\.3/i);
    expect(await form.state(client, body)).toEqual(before);
  });

  it('lets a fresh, well-scored token for its action through, asking with the secret and the client address', async () => {
    const client = new Client(server.url);
    const body = form.body();
    const mails = form.mail ? mailsTo(form.mail.to(body), form.mail.subject) : 0;
    const res = await client.post(form.route, { ...body, recaptcha_token: fakeToken({ action: form.action, score: 0.7 }) });
    expect(res.status, res.text).toBe(form.okStatus);
    expect(res.text).not.toMatch(/score/i);
    expect(fake.requests.at(-1)).toMatchObject({ secret: fake.secret, remoteip: client.ip, token: { action: form.action } });
    if (form.mail) await nextMail(form.mail.to(body), form.mail.subject, mails);
  });

  it('answers 503 with a message while the provider cannot be reached, changing nothing', async () => {
    const client = new Client(server.url);
    const body = form.body();
    const before = await form.state(client, body);
    fake.down = true;
    try {
      const res = await client.post(form.route, { ...body, recaptcha_token: fakeToken({ action: form.action, score: 0.9 }) });
      expect(res.status, res.text).toBe(503);
      expect(res.body.message).toBe('The bot check could not be reached. Try again in a moment.');
    } finally {
      fake.down = false;
    }
    expect(await form.state(client, body)).toEqual(before);
  });

  it('refuses a form post without a token and shows the message on the form', async () => {
    const client = new Client(server.url);
    const body = form.body();
    const before = await form.state(client, body);
    const res = await client.request(form.route, { method: 'POST', form: body, headers: { Accept: 'text/html' }, xrw: false });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(form.page);
    expect(await form.state(client, body)).toEqual(before);
    const page = await html(client, form.page);
    expect(page.text).toContain(REFUSED);
  });

  it('loads the provider with the site key and the form’s action, allowed by the page’s CSP', async () => {
    const res = await html(new Client(server.url), form.page);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`data-action="${form.action}"`);
    expect(res.text).toContain(`data-src="${fake.scriptUrl}?render=${fake.siteKey}"`);
    expect(res.text).toContain('name="recaptcha_token"');
    expect(res.text).toContain('This form is protected by a bot check.');
    const csp = res.headers.get('content-security-policy') ?? '';
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    expect(scriptSrc).toContain(new URL(fake.scriptUrl).origin);
    expect(scriptSrc).not.toContain('google');
  });
});

describe('the bot check elsewhere', () => {
  it('lets a good sign-up through as a form post, creating the account and its mail', async () => {
    const client = new Client(server.url);
    const email = uniqueEmail('bot-form');
    const body = { name: 'Fay Form', email, password: 'a form sign-up passphrase', password_confirmation: 'a form sign-up passphrase', recaptcha_token: fakeToken({ action: 'signup', score: 0.9 }) };
    const res = await client.request('/register', { method: 'POST', form: body, headers: { Accept: 'text/html' }, xrw: false });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/sign-in');
    expect(await seed.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeDefined();
    await nextMail(email, /^Confirm your email/, 0);
  });

  it('sends the reset mail for a good token on the forgotten-password form', async () => {
    const before = mailsTo(MEMBER.email, /^Reset your/);
    const res = await new Client(server.url).post('/forgot-password', { email: MEMBER.email, recaptcha_token: fakeToken({ action: 'forgot_password', score: 0.6 }) });
    expect(res.status).toBe(200);
    await nextMail(MEMBER.email, /^Reset your/, before);
  });

  it('refuses a token that is not text, as bad input', async () => {
    const res = await new Client(server.url).post('/login', { email: MEMBER.email, password: MEMBER.password, recaptcha_token: 42 });
    expect(res.status).toBe(422);
    expect(res.body.errors.recaptcha_token).toEqual([REFUSED]);
  });
});

describe('a bot-check secret the provider refuses', () => {
  it('turns every guarded form away, and the admin dashboard says so until a good secret is saved', async () => {
    const warning = async () => ((await admin.get('/api/admin/dashboard')).body.data.warnings as { code: string }[]).filter((w) => w.code === 'bot_check_secret');
    expect(await warning()).toEqual([]);
    const wrong = await admin.request('/api/admin/settings/sign-in', { method: 'PUT', json: { recaptcha: { secret: 'a-mistyped-secret' } } });
    expect(wrong.status, wrong.text).toBe(200);
    try {
      const res = await new Client(server.url).post('/login', { email: MEMBER.email, password: MEMBER.password, recaptcha_token: fakeToken({ action: 'login', score: 0.9 }) });
      expect(res.status).toBe(422);
      expect(await warning()).toEqual([{ code: 'bot_check_secret', at: expect.any(String) }]);
      expect(server.logs.some((line) => line.includes('the bot check refused the instance secret'))).toBe(true);
    } finally {
      const fixed = await admin.request('/api/admin/settings/sign-in', { method: 'PUT', json: { recaptcha: { secret: fake.secret } } });
      expect(fixed.status, fixed.text).toBe(200);
    }
    expect(await warning()).toEqual([]);
    const res = await new Client(server.url).post('/login', { email: MEMBER.email, password: MEMBER.password, recaptcha_token: fakeToken({ action: 'login', score: 0.9 }) });
    expect(res.status, res.text).toBe(200);
  });
});

// Last: switches the check off for the rest of the file.
describe('with the bot check off', () => {
  beforeAll(async () => {
    const off = await admin.request('/api/admin/settings/sign-in', { method: 'PUT', json: { recaptcha: { enabled: false } } });
    expect(off.status, off.text).toBe(200);
  });

  it.each(FORMS)('takes the $name form without a token and loads nothing from the provider', async (form) => {
    const asked = fake.requests.length;
    const res = await new Client(server.url).post(form.route, form.body());
    expect(res.status, res.text).toBe(form.okStatus);
    expect(fake.requests.length).toBe(asked);
    const page = await html(new Client(server.url), form.page);
    expect(page.text).not.toContain('recaptcha_token');
    expect(page.text).not.toContain('protected by a bot check');
    expect(page.headers.get('content-security-policy')).not.toContain(new URL(fake.scriptUrl).origin);
  });
});
