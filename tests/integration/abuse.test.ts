import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, registerUser } from '../support/client.ts';
import { mkdir } from '../support/files.ts';
import { seedFile, useSeededServer } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { share } from '../support/shares.ts';
import { createToken } from '../support/uploads.ts';

/**
 * A table of hostile inputs against every endpoint that takes a body (src/pages/api/**, the form
 * endpoints in src/pages/*.ts and the data plane's JSON routes): wrong JSON types, huge strings,
 * 100,000 ids, NUL bytes, bidirectional overrides, invalid UUIDs, negative and NaN numbers,
 * prototype-pollution keys, wrong content types and empty bodies. Every answer must be a 4xx with a
 * `message` (never a 500), and the user's items, shares, requests, tokens and account must be
 * exactly as before.
 */

const env = useSeededServer();

type Kind = 'gb' | 'name' | 'personName' | 'optionalName' | 'emoji' | 'optionalEmail' | 'id' | 'folderRef' | 'items' | 'ids' | 'bool' | 'hours' | 'email' | 'emails' | 'password' | 'text' | 'tokens' | 'urls' | 'enum';

const HUGE = 'x'.repeat(100_000);
const MANY_ITEMS = Array.from({ length: 100_000 }, () => ({ id: randomUUID(), type: 'file' }));
const MANY_IDS = MANY_ITEMS.map((i) => i.id);

/** Values every field must refuse, whatever its kind. */
const COMMON: unknown[] = [{}, { __proto__: { role: 'admin' } }, { constructor: { prototype: { role: 'admin' } } }];

/** Values a field of each kind must refuse (each is sent alone in an otherwise valid body). */
const HOSTILE: Record<Kind, unknown[]> = {
  name: [123, true, [], '', HUGE, 'a\u0000b', 'invoice\u202Etxt.exe', 'pay\u200Bpal', '../x', 'a/b', '\u0085'],
  optionalName: [123, true, [], HUGE, 'a\u0000b', 'invoice\u202Etxt.exe', '../x', 'a/b'],
  personName: [123, true, [], '', HUGE, 'a\u0000b', 'Eve\r\nBcc: x@y.test', 'a\u202Eb', '\u0085'],
  emoji: [123, true, [], HUGE, { x: HUGE }],
  optionalEmail: [123, [], 'nope', 'a@b.test\r\nBcc: c@d.test', `${HUGE}@example.test`, 'a\u0000@b.test'],
  id: [123, true, [], HUGE, 'not-a-uuid', "' or 1=1 --", 'a\u0000b', randomUUID(), '-1'],
  folderRef: [123, true, [], HUGE, 'not-a-uuid', 'a\u0000b', randomUUID()],
  items: [123, 'file', [], [null], ['x'], [{ id: 'not-a-uuid', type: 'file' }], [{ id: randomUUID(), type: 'weird' }], [{ id: 1, type: 'file' }], [{ id: 'a\u0000b', type: 'file' }], MANY_ITEMS],
  ids: [123, 'x', [], [null], [123], ['not-a-uuid'], ['a\u0000b'], MANY_IDS],
  bool: ['yes', 2, -1, []],
  gb: [-1, 'NaN', '1e309', '12abc', 1e308, HUGE, []],
  hours: [-1, 0, 'NaN', '1e309', 1.5, '12abc', 1e308, HUGE, []],
  email: [123, [], '', 'nope', 'a@b.test\r\nBcc: c@d.test', `${HUGE}@example.test`, 'a\u0000@b.test'],
  emails: ['a@b.test', 123, ['nope'], [123], ['a@b.test\r\nBcc: c@d.test'], Array.from({ length: 100_000 }, (_, i) => `r${i}@example.test`)],
  password: [123, [], '', HUGE],
  text: [123, [], HUGE, 'a\u0000b'],
  tokens: [123, 'x', [], [123], [HUGE], ['a\u0000b'], MANY_IDS],
  urls: [123, 'http://x', [], [123], ['not a url'], ['ftp://x/y'], ['javascript:alert(1)'], [`http://x/${HUGE}`], MANY_IDS.slice(0, 1000)],
  enum: [123, true, [], 'weird', HUGE, 'a\u0000b'],
};

interface Endpoint {
  name: string;
  method: 'POST' | 'PATCH' | 'DELETE';
  path: () => string;
  /** A valid body: each hostile value replaces one field of it. */
  base: Record<string, unknown>;
  fields: Record<string, Kind>;
  /** Who calls it: the owner's session (default), nobody (signed out), or the owner's bearer token (data plane). */
  as?: 'owner' | 'anonymous' | 'bearer';
  /** Every field is optional: an empty body is a valid call (it is left out of the raw bodies). */
  emptyIsValid?: boolean;
}

let owner: Awaited<ReturnType<typeof registerUser>>;
let bearer = '';
let folder = '';
let file = '';
let shareToken = '';
let requestToken = '';
let tokenId = '';

const ENDPOINTS: Endpoint[] = [
  { name: 'create folder', method: 'POST', path: () => '/api/create-folder', base: { name: 'New', parent_id: null }, fields: { name: 'name', parent_id: 'folderRef', emoji: 'emoji' } },
  { name: 'move', method: 'POST', path: () => '/api/move', base: { to_id: folder, items: [{ id: file, type: 'file' }] }, fields: { to_id: 'folderRef', items: 'items' } },
  { name: 'remove', method: 'POST', path: () => '/api/remove', base: { items: [{ id: file, type: 'file' }] }, fields: { items: 'items' } },
  { name: 'rename', method: 'PATCH', path: () => `/api/rename/${file}`, base: { name: 'renamed.txt' }, fields: { name: 'name', color: 'enum', type: 'enum' } },
  { name: 'restore', method: 'POST', path: () => '/api/trash/restore', base: { to_home: true, items: [{ id: randomUUID(), type: 'file' }] }, fields: { to_home: 'bool', items: 'items' } },
  { name: 'favourites', method: 'POST', path: () => '/api/folders/favourites', base: { folders: [folder] }, fields: { folders: 'ids' } },
  { name: 'share', method: 'POST', path: () => `/api/share/${file}`, base: { type: 'file', permission: 'visitor' }, fields: { type: 'enum', permission: 'enum', password: 'password', expiration: 'hours', emails: 'emails' } },
  { name: 'change share', method: 'PATCH', path: () => `/api/share/${shareToken}`, base: { permission: 'editor' }, fields: { permission: 'enum', password: 'password', expiration: 'hours', emails: 'emails' } },
  { name: 'revoke shares', method: 'DELETE', path: () => '/api/share/revoke', base: { tokens: [randomUUID()] }, fields: { tokens: 'tokens' } },
  { name: 'unlock share', method: 'POST', path: () => `/api/browse/authenticate/${shareToken}`, base: { password: 'wrong' }, fields: { password: 'password' }, as: 'anonymous' },
  { name: 'editor: create folder', method: 'POST', path: () => `/api/editor/create-folder/${shareToken}`, base: { name: 'New', parent_id: folder }, fields: { name: 'name', parent_id: 'folderRef' }, as: 'anonymous' },
  { name: 'editor: move', method: 'POST', path: () => `/api/editor/move/${shareToken}`, base: { to_id: folder, items: [{ id: randomUUID(), type: 'file' }] }, fields: { to_id: 'folderRef', items: 'items' }, as: 'anonymous' },
  { name: 'editor: remove', method: 'POST', path: () => `/api/editor/remove/${shareToken}`, base: { items: [{ id: randomUUID(), type: 'file' }] }, fields: { items: 'items' }, as: 'anonymous' },
  { name: 'editor: rename', method: 'PATCH', path: () => `/api/editor/rename/${file}/${shareToken}`, base: { name: 'renamed.txt' }, fields: { name: 'name' }, as: 'anonymous' },
  { name: 'upload request', method: 'POST', path: () => '/api/upload-request', base: { folder_id: folder }, fields: { folder_id: 'folderRef', name: 'optionalName', notes: 'text', email: 'optionalEmail', expiration: 'hours' }, emptyIsValid: true },
  { name: 'request: create folder', method: 'POST', path: () => `/api/upload-request/${requestToken}/create-folder`, base: { name: 'New', parent_id: folder }, fields: { name: 'name', parent_id: 'folderRef' }, as: 'anonymous' },
  { name: 'request: move', method: 'POST', path: () => `/api/upload-request/${requestToken}/move`, base: { to_id: folder, items: [{ id: file, type: 'file' }] }, fields: { to_id: 'folderRef', items: 'items' }, as: 'anonymous' },
  { name: 'request: remove', method: 'POST', path: () => `/api/upload-request/${requestToken}/remove`, base: { items: [{ id: file, type: 'file' }] }, fields: { items: 'items' }, as: 'anonymous' },
  { name: 'request: rename', method: 'PATCH', path: () => `/api/upload-request/${requestToken}/rename/${file}`, base: { name: 'renamed.txt' }, fields: { name: 'name' }, as: 'anonymous' },
  { name: 'password', method: 'PATCH', path: () => '/api/user/password', base: { current_password: 'wrong password', password: 'another long password', password_confirmation: 'another long password' }, fields: { current_password: 'password', password: 'password', password_confirmation: 'password' } },
  { name: 'profile', method: 'PATCH', path: () => '/api/user/settings', base: { name: 'name', value: 'Grace' }, fields: { name: 'enum', value: 'personName', theme_mode: 'enum' } },
  { name: 'new access token', method: 'POST', path: () => '/api/user/tokens', base: { name: 'x' }, fields: { name: 'password' } },
  { name: 'sign in', method: 'POST', path: () => '/login', base: { email: 'nobody@example.test', password: 'wrong password' }, fields: { email: 'email', password: 'password', remember: 'bool' }, as: 'anonymous' },
  { name: 'sign up', method: 'POST', path: () => '/register', base: { name: 'Mallory', email: 'taken@example.test', password: 'short', password_confirmation: 'short' }, fields: { name: 'personName', email: 'email', password: 'password', password_confirmation: 'password' }, as: 'anonymous' },
  { name: 'forgotten password', method: 'POST', path: () => '/forgot-password', base: { email: 'nope' }, fields: { email: 'email' }, as: 'anonymous' },
  { name: 'new password', method: 'POST', path: () => '/reset-password', base: { token: 'nope', email: 'nobody@example.test', password: 'a long new password', password_confirmation: 'a long new password' }, fields: { token: 'password', email: 'email', password: 'password' }, as: 'anonymous' },
  { name: 'contact', method: 'POST', path: () => '/contact', base: { name: 'Vera', email: 'vera@example.test', message: 'hi', website: 'bot' }, fields: { name: 'personName', email: 'email', message: 'text' }, as: 'anonymous' },
  { name: 'import from URL', method: 'POST', path: () => '/api/upload/remote', base: { urls: ['ftp://x/y'], parent_id: null }, fields: { urls: 'urls', parent_id: 'folderRef' }, as: 'bearer' },
];

/** Raw bodies every endpoint must refuse (with the content type they are sent as). */
const RAW_BODIES: [string, string | Uint8Array<ArrayBuffer>, string | null][] = [
  ['an array', '[]', 'application/json'],
  ['a string', '"text"', 'application/json'],
  ['null', 'null', 'application/json'],
  ['a number', '12', 'application/json'],
  ['broken JSON', '{"name": ', 'application/json'],
  ['NUL bytes', '\u0000\u0000', 'application/json'],
  ['deep nesting', '['.repeat(100_000) + ']'.repeat(100_000), 'application/json'],
  ['a __proto__ key', '{"__proto__": {"role": "admin", "isAdmin": true}}', 'application/json'],
  ['a constructor.prototype key', '{"constructor": {"prototype": {"role": "admin"}}}', 'application/json'],
  ['an empty JSON body', '', 'application/json'],
  ['plain text', 'name=x', 'text/plain'],
  ['XML', '<name>x</name>', 'application/xml'],
  ['no content type', '{"name":"x"}', null],
  ['bytes', new Uint8Array([0xff, 0xfe, 0x00, 0x01]), 'application/octet-stream'],
];

/** Everything the owner has and is: compared before and after the table. */
async function state(): Promise<string> {
  const db = env.seed.db;
  const id = owner.user.id as string;
  const [items, shares, requests, tokens, user, favourites, admins] = await Promise.all([
    db.selectFrom('items').select(['id', 'name', 'parent_id', 'deleted_at', 'emoji', 'color', 'updated_at']).where('owner_id', '=', id).orderBy('id').execute(),
    db.selectFrom('shares').select(['token', 'permission', 'password_hash', 'expires_at', 'updated_at']).where('user_id', '=', id).orderBy('token').execute(),
    db.selectFrom('upload_requests').select(['token', 'status', 'updated_at']).where('user_id', '=', id).orderBy('token').execute(),
    db.selectFrom('access_tokens').select(['id', 'name']).where('user_id', '=', id).orderBy('id').execute(),
    db.selectFrom('users').select(['name', 'email', 'password_hash', 'role', 'first_name', 'last_name', 'theme_mode', 'emoji_type', 'updated_at']).where('id', '=', id).executeTakeFirst(),
    db.selectFrom('favourites').selectAll().where('user_id', '=', id).execute(),
    db.selectFrom('users').select('id').where('role', '=', 'admin').execute(),
  ]);
  return JSON.stringify({ items, shares, requests, tokens, user, favourites, admins: admins.length });
}

function clientFor(endpoint: Endpoint): Client {
  if (endpoint.as === 'anonymous') return new Client(env.server.url);
  return owner.client;
}

async function send(endpoint: Endpoint, body: string | Uint8Array<ArrayBuffer> | undefined, contentType: string | null) {
  const client = clientFor(endpoint);
  const headers: Record<string, string> = {};
  if (contentType) headers['Content-Type'] = contentType;
  // Methods other than POST go as POST with `_method`, as the product's client sends them; raw bodies go as the method itself.
  return client.request(endpoint.path(), {
    method: endpoint.method,
    body,
    headers,
    ...(endpoint.as === 'bearer' ? { bearer, origin: null, xrw: false } : {}),
  });
}

function expectRefused(label: string, res: { status: number; body: any; text: string }) {
  expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${label}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
  expect(typeof res.body?.message, `${label}: ${res.text.slice(0, 300)}`).toBe('string');
  expect(res.body.message.length, label).toBeGreaterThan(0);
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 40)}… (${text.length} chars)` : text;
}

beforeAll(async () => {
  owner = await registerUser(env.server.url);
  bearer = await createToken(owner.client);
  tokenId = (await env.seed.db.selectFrom('access_tokens').select('id').where('user_id', '=', owner.user.id).executeTakeFirstOrThrow()).id;
  folder = await mkdir(owner.client, 'Shared');
  file = (await seedFile(env.seed, owner.user.id, { name: 'a.txt', parentId: folder, content: 'alpha' })).id;
  shareToken = (await share(owner.client, folder, { permission: 'editor' })).token;
  const request = await owner.client.post('/api/upload-request', { folder_id: folder });
  expect(request.status, request.text).toBe(201);
  requestToken = request.body.data.attributes.token;
});

describe('hostile input against every endpoint that takes a body', () => {
  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.method} ${endpoint.name}: a 4xx with a message for each, nothing changed`, async () => {
      const before = await state();
      for (const [field, kind] of Object.entries(endpoint.fields)) {
        // An emoji may be any small object (the picker's), so only the kind's own values apply there.
        for (const value of [...HOSTILE[kind], ...(kind === 'emoji' ? [] : COMMON)]) {
          const body = JSON.stringify({ ...endpoint.base, [field]: value });
          expectRefused(`${field} = ${describeValue(value)}`, await send(endpoint, body, 'application/json'));
        }
      }
      for (const [label, body, type] of RAW_BODIES) {
        if (endpoint.emptyIsValid && body === '') continue;
        expectRefused(label, await send(endpoint, body, type));
      }
      expect(await state()).toBe(before);
    });
  }

  it('path ids and tokens that are not ids: 4xx with a message', async () => {
    const before = await state();
    const bad = ['not-a-uuid', "'%20or%201=1", '%00', 'a'.repeat(5000), randomUUID(), '-1', '%E2%80%AE'];
    for (const id of bad) {
      for (const [method, path, body] of [
        ['PATCH', `/api/rename/${id}`, { name: 'x.txt' }],
        ['POST', `/api/share/${id}`, { type: 'file' }],
        ['PATCH', `/api/share/${id}`, { permission: 'editor' }],
        ['DELETE', `/api/folders/favourites/${id}`, {}],
        ['DELETE', `/api/user/tokens/${id}`, {}],
        ['DELETE', `/api/upload-request/${id}`, {}],
        ['POST', `/api/browse/authenticate/${id}`, { password: 'x' }],
        ['POST', `/api/editor/create-folder/${id}`, { name: 'x' }],
        ['PATCH', `/api/editor/rename/${file}/${id}`, { name: 'x.txt' }],
        ['POST', `/api/upload-request/${id}/create-folder`, { name: 'x' }],
      ] as const) {
        const res = await owner.client.request(path, { method, json: body });
        expectRefused(`${method} ${path.slice(0, 80)}`, res);
      }
    }
    expect(await state()).toBe(before);
    expect(tokenId).toBeTruthy();
  });

  it('the data plane’s uploads refuse wrong content types and empty bodies with a message', async () => {
    const before = await state();
    for (const path of ['/api/upload', `/api/editor/upload/${shareToken}`, `/api/upload-request/${requestToken}/upload`]) {
      for (const [label, body, type, fileName] of [
        ['JSON', '{"name":"x"}', 'application/json'],
        ['XML', '<x/>', 'application/xml'],
        ['no name', 'bytes', 'application/octet-stream'],
        ['a bidi name', 'bytes', 'application/octet-stream', 'invoice%E2%80%AEtxt.exe'],
        ['a NUL name', 'bytes', 'application/octet-stream', 'a%00b'],
        // Malformed multipart has tests of its own with the upload parser (src/server/uploads).
      ] as [string, string, string, string?][]) {
        const res = await owner.client.request(path, { method: 'POST', body, headers: { 'Content-Type': type, ...(fileName ? { 'X-File-Name': fileName } : {}) } });
        expectRefused(`${path} ${label}`, res);
      }
    }
    expect(await state()).toBe(before);
  });

  it('hostile query strings and path ids on the read endpoints: a 4xx with a message', async () => {
    const many = MANY_IDS.slice(0, 2000).map((id) => `${id}|file`).join(',');
    for (const path of [
      '/api/browse/folders/all?limit=NaN',
      '/api/browse/folders/all?limit=-1',
      '/api/browse/folders/all?limit=1e309',
      '/api/browse/folders/all?sort=__proto__',
      '/api/browse/folders/all?direction=sideways',
      '/api/browse/folders/all?cursor=%E2%80%AE%FF',
      '/api/browse/folders/not-a-uuid',
      `/api/browse/folders/${randomUUID()}`,
      `/api/search?query=${'x'.repeat(300)}`,
      '/api/search',
      '/api/zip?items=garbage',
      '/api/zip?items=not-a-uuid|file',
      `/api/zip?items=${many}`,
      '/api/zip',
      '/file/not-a-uuid',
      `/file/${randomUUID()}`,
      `/thumbnail/${randomUUID()}/huge`,
      '/api/browse/share/%E2%80%AE',
      '/api/upload/remote/not-a-uuid',
    ]) {
      expectRefused(path.slice(0, 80), await owner.client.get(path));
    }
  });

  it('tus creation refuses hostile lengths and metadata with a 4xx', async () => {
    const before = await state();
    const b64 = (t: string) => Buffer.from(t).toString('base64');
    const cases: [string, Record<string, string>][] = [
      ['a negative length', { 'Upload-Length': '-1' }],
      ['a length that is no number', { 'Upload-Length': 'NaN' }],
      ['an astronomical length', { 'Upload-Length': '1'.repeat(400) }],
      ['no length', {}],
      ['broken metadata', { 'Upload-Length': '5', 'Upload-Metadata': 'filename %%%, ,,' }],
      ['a bidi name', { 'Upload-Length': '5', 'Upload-Metadata': `filename ${b64('invoice\u202Etxt.exe')}` }],
      ['a NUL name', { 'Upload-Length': '5', 'Upload-Metadata': `filename ${b64('a\u0000b')}` }],
      ['a hostile parent', { 'Upload-Length': '5', 'Upload-Metadata': `filename ${b64('a.txt')},parent_id ${b64("' or 1=1 --")}` }],
    ];
    for (const [label, headers] of cases) {
      const res = await owner.client.request('/api/upload/tus', { method: 'POST', headers: { 'Tus-Resumable': '1.0.0', ...headers } });
      expect(res.status, `${label}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${label}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
    }
    expect(await state()).toBe(before);
  });

  it('prototype-pollution keys leave the server unpolluted: a new account is no admin, the owner is none', async () => {
    const fresh = await registerUser(env.server.url);
    expect(fresh.user.attributes?.role ?? fresh.user.role).not.toBe('admin');
    expect((await fresh.client.get('/api/admin/dashboard')).status).toBe(403);
    expect((await owner.client.get('/api/admin/dashboard')).status).toBe(403);
  });
});

describe('hostile input against the setup wizard of a fresh instance', () => {
  let fresh: RunningServer;
  let token = '';
  beforeAll(async () => {
    fresh = await startServer({ installed: false });
    for (const line of fresh.logs) token = /"setup_token":"([^"]+)"/.exec(line)?.[1] ?? token;
  });
  afterAll(async () => {
    await fresh?.stop();
  });

  const STEPS: { step: string; base: Record<string, unknown>; fields: Record<string, Kind> }[] = [
    { step: 'purchase-code', base: { accept_license: true, purchase_code: '' }, fields: { accept_license: 'bool', purchase_code: 'text' } },
    { step: 'database', base: { driver: 'sqlite' }, fields: { driver: 'enum', url: 'text' } },
    { step: 'environment', base: { storage_driver: 'local', mail_driver: 'log', mail_from_address: 'drive@example.test', mail_from_name: 'Drive' }, fields: { storage_driver: 'enum', mail_driver: 'enum', mail_from_address: 'email', mail_from_name: 'text', mail_port: 'hours' } },
    { step: 'test-mail', base: { test_email: 'x@example.test' }, fields: { test_email: 'email' } },
    { step: 'app-setup', base: { app_name: 'Acme', contact_email: 'c@example.test', default_storage_gb: 2, subscription_type: 'none' }, fields: { app_name: 'text', contact_email: 'email', registration_open: 'bool', default_storage_gb: 'gb', subscription_type: 'enum', logo_horizontal: 'text' } },
    // Never valid (the passwords differ), so nothing here can install the instance.
    { step: 'admin-setup', base: { name: 'Ada', email: 'ada@example.test', password: 'correct horse battery', password_confirmation: 'another horse' }, fields: { name: 'personName', email: 'email', password: 'password' } },
    { step: 'token', base: { token: 'wrong' }, fields: { token: 'password' } },
  ];

  it('answers every step with a 4xx and a message, and leaves the instance uninstalled and the wizard where it was', async () => {
    expect(token).toMatch(/\S{16,}/);
    const wizard = new Client(fresh.url);
    const headers = { 'X-Setup-Token': token };
    const progress = async () => JSON.stringify((await wizard.get('/api/setup/state', { headers })).body);
    const before = await progress();
    for (const { step, base, fields } of STEPS) {
      for (const [field, kind] of Object.entries(fields)) {
        for (const value of [...HOSTILE[kind], ...COMMON]) {
          const res = await wizard.request(`/api/setup/${step}`, { method: 'POST', json: { ...base, [field]: value }, headers });
          expectRefused(`${step} ${field} = ${describeValue(value)}`, res);
        }
      }
      for (const [label, body, type] of RAW_BODIES) {
        const res = await wizard.request(`/api/setup/${step}`, { method: 'POST', body, headers: { ...headers, ...(type ? { 'Content-Type': type } : {}) } });
        expectRefused(`${step} ${label}`, res);
      }
    }
    expect(await progress()).toBe(before);
    const home = await new Client(fresh.url).request('/', { method: 'GET', headers: { Accept: 'text/html' }, xrw: false });
    expect(home.status).toBe(302);
    expect(home.headers.get('location')).toBe('/setup-wizard/status-check');
  });
});
