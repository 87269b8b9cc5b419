import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../messages/en.json' with { type: 'json' };
import { Client, registerUser } from '../support/client.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const ADMIN = { email: 'owner@example.test', password: 'owner password 1' };
const KEY_COUNT = countKeys(en);
let server: RunningServer;
let admin: Client;

beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: 'Owner' } });
  admin = new Client(server.url);
  expect((await admin.post('/login', ADMIN)).status).toBe(200);
});
afterAll(async () => {
  await server?.stop();
});

function countKeys(source: Record<string, unknown>): number {
  return Object.entries(source).reduce((n, [key, value]) => (key.startsWith('$') ? n : n + (typeof value === 'string' ? 1 : countKeys(value as Record<string, unknown>))), 0);
}
const languages = async () => (await admin.get('/api/admin/languages?limit=100')).body.data.map((d: { attributes: Record<string, unknown> }) => d.attributes);
const language = async (code: string) => (await languages()).find((l: { code: string }) => l.code === code);
const putStrings = (code: string, strings: Record<string, unknown>) => admin.request(`/api/admin/languages/${code}/strings`, { method: 'PUT', json: { strings } });
const catalogue = (code: string, headers: Record<string, string> = {}) => new Client(server.url).get(`/translations/${code}`, { headers });
const page = (path: string, headers: Record<string, string>) => new Client(server.url).request(path, { headers: { Accept: 'text/html', ...headers }, xrw: false });
const htmlTag = (text: string) => text.match(/<html[^>]*>/)?.[0] ?? '';
const audit = async (action: string) => (await admin.get('/api/admin/audit?target_type=language&limit=100')).body.data.filter((e: { attributes: { action: string } }) => e.attributes.action === action);

describe('languages', () => {
  it('adds a language that starts as a copy of English, with every string waiting for a translation', async () => {
    const res = await admin.post('/api/admin/languages', { code: 'fr', name: 'Français' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ id: 'fr', type: 'language', attributes: { code: 'fr', name: 'Français', rtl: false, built_in: false, default: false, changed: 0 } });
    expect(res.body.data.attributes).toMatchObject({ strings: KEY_COUNT, untranslated: KEY_COUNT });
    const served = await catalogue('fr');
    expect(served.status).toBe(200);
    expect(served.body['locations.home']).toBe('Files');
    expect(Object.keys(served.body)).toHaveLength(KEY_COUNT);
    expect((await language('fr')).name).toBe('Français');
    expect(await audit('language.create')).toEqual([expect.objectContaining({ attributes: expect.objectContaining({ target: { type: 'language', id: 'fr', label: 'Français' } }) })]);
  });

  it('stores a code in its canonical BCP 47 form', async () => {
    const res = await admin.post('/api/admin/languages', { code: 'PT-br', name: 'Português (Brasil)' });
    expect(res.status).toBe(201);
    expect(res.body.data.id).toBe('pt-BR');
    // Any spelling of the code finds it.
    expect((await catalogue('pt-br')).status).toBe(200);
  });

  it.each([
    [{ code: 'not a tag', name: 'X' }, 'code', /BCP 47/],
    [{ code: 'en_US', name: 'X' }, 'code', /BCP 47/],
    [{ code: 'abcdefghi', name: 'X' }, 'code', /BCP 47/],
    [{ code: 'x'.repeat(40), name: 'X' }, 'code', /BCP 47/],
    [{ code: '', name: 'X' }, 'code', /required/],
    [{ code: 'fr', name: 'Encore' }, 'code', /already is a language with the code fr/],
    [{ code: 'EN', name: 'English again' }, 'code', /already is a language with the code en/],
    [{ code: 'it' }, 'name', /must be text/],
    [{ code: 'it', name: '   ' }, 'name', /required/],
    [{ code: 'it', name: 'I'.repeat(61) }, 'name', /60 characters/],
    [{ code: 'it', name: 'Ital\u202eiano' }, 'name', /text-direction/],
    [{ code: 'it', name: 'Italiano', rtl: 'yes' }, 'rtl', /true or false/],
  ])('refuses %j with a 422 on %s, adding nothing', async (body, field, message) => {
    const before = await languages();
    const res = await admin.post('/api/admin/languages', body);
    expect(res.status).toBe(422);
    expect(res.body.errors[field][0]).toMatch(message);
    expect(await languages()).toEqual(before);
  });

  it('serves an override in /translations with an ETag, and 304 while nothing changed', async () => {
    const first = await catalogue('fr');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect((await catalogue('fr', { 'If-None-Match': etag })).status).toBe(304);

    const res = await putStrings('fr', { 'locations.home': 'Fichiers', 'auth.sign_in_title': 'Bon retour' });
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { attributes: unknown }) => s.attributes)).toEqual([
      expect.objectContaining({ key: 'locations.home', value: 'Fichiers', english: 'Files', default: 'Files', changed: true, untranslated: false }),
      expect.objectContaining({ key: 'auth.sign_in_title', value: 'Bon retour', changed: true, untranslated: false }),
    ]);
    const changed = await catalogue('fr', { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(changed.body['locations.home']).toBe('Fichiers');
    const newEtag = changed.headers.get('etag')!;
    expect(newEtag).not.toBe(etag);
    expect((await catalogue('fr', { 'If-None-Match': `W/${newEtag}, "other"` })).status).toBe(304);
    expect(await language('fr')).toMatchObject({ changed: 2, untranslated: KEY_COUNT - 2 });
    const [entry] = await audit('translation.update');
    expect(entry.attributes.after).toEqual({ strings: [{ key: 'locations.home', value: 'Fichiers' }, { key: 'auth.sign_in_title', value: 'Bon retour' }] });
  });

  it('renders the public pages in the language with the override, in <html lang dir>', async () => {
    const signIn = await page('/sign-in', { Cookie: 'locale=fr' });
    expect(signIn.status).toBe(200);
    expect(signIn.text).toContain('Bon retour');
    expect(htmlTag(signIn.text)).toMatch(/lang="fr" dir="ltr"/);
    // The browser's language finds it too, region and all.
    expect(htmlTag((await page('/sign-in', { 'Accept-Language': 'fr-CA,fr;q=0.9' })).text)).toContain('lang="fr"');
    // The app's document speaks it as well, and its config offers every language to pick.
    admin.cookies.set('locale', 'fr');
    const app = await admin.request('/platform/files', { headers: { Accept: 'text/html' }, xrw: false });
    admin.cookies.delete('locale');
    expect(htmlTag(app.text)).toMatch(/lang="fr" dir="ltr"/);
    const config = JSON.parse(app.text.match(/id="app-config">(.*?)<\/script>/s)![1]!);
    expect(config.locale).toBe('fr');
    expect(config.languages.map((l: { code: string }) => l.code)).toEqual(expect.arrayContaining(['en', 'de', 'fr', 'pt-BR']));
  });

  it('sets dir="rtl" for a right-to-left language, and back when that changes', async () => {
    expect((await admin.post('/api/admin/languages', { code: 'ar', name: 'العربية', rtl: true })).status).toBe(201);
    expect(htmlTag((await page('/', { Cookie: 'locale=ar' })).text)).toMatch(/lang="ar" dir="rtl"/);
    const res = await admin.request('/api/admin/languages/ar', { method: 'PATCH', json: { rtl: false } });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.rtl).toBe(false);
    expect(htmlTag((await page('/', { Cookie: 'locale=ar' })).text)).toMatch(/dir="ltr"/);
    expect((await audit('language.update'))[0].attributes).toMatchObject({ before: { rtl: true }, after: { rtl: false } });
  });

  it('refuses a text that drops or invents a placeholder, naming it, and changes nothing', async () => {
    const before = await catalogue('fr');
    const missing = await putStrings('fr', { 'auth.reset_subtitle': 'Choisissez un mot de passe pour {mail}.' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors['strings.auth.reset_subtitle'][0]).toContain('{email}');
    expect(missing.body.message).toMatch(/must keep the placeholder \{email\}/);
    const unknown = await putStrings('fr', { 'auth.reset_subtitle': 'Pour {email} et {user}.', 'locations.home': 'Mes fichiers' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toMatch(/\{user\}/);
    const added = await putStrings('fr', { 'locations.home': 'Fichiers de {name}' });
    expect(added.status).toBe(422);
    expect(added.body.message).toMatch(/\{name\}.*has none/);
    // One bad text refuses the whole request: "Mes fichiers" was not saved either.
    const after = await catalogue('fr');
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    expect(after.body['locations.home']).toBe('Fichiers');
  });

  it.each([
    [{ 'no.such.key': 'x' }, /no string “no.such.key”/],
    [{ 'locations.home': '' }, /may not be empty/],
    [{ 'locations.home': 5 }, /text or null/],
    [{ 'locations.home': 'x'.repeat(5001) }, /5000 characters/],
    [{}, /at least one/],
    [Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'x'])), /At most 100/],
  ])('refuses the strings %# with a 422, changing nothing', async (strings, message) => {
    const before = (await catalogue('fr')).headers.get('etag');
    const res = await putStrings('fr', strings);
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(message);
    expect((await catalogue('fr')).headers.get('etag')).toBe(before);
  });

  it('refuses strings sent as something other than an object', async () => {
    const res = await admin.request('/api/admin/languages/fr/strings', { method: 'PUT', json: { strings: ['locations.home'] } });
    expect(res.status).toBe(422);
    expect((await admin.request('/api/admin/languages/xx/strings', { method: 'PUT', json: { strings: { 'locations.home': 'x' } } })).status).toBe(404);
  });

  it('lists strings with search, the changed and untranslated filters, and keyset pages that cover every key once', async () => {
    const list = (query: string) => admin.get(`/api/admin/languages/fr/strings?${query}`);
    const changed = await list('filter=changed');
    expect(changed.status).toBe(200);
    expect(changed.body.data.map((d: { id: string }) => d.id)).toEqual(['auth.sign_in_title', 'locations.home']);
    expect(changed.body.meta).toMatchObject({ total: 2, changed: 2, untranslated: KEY_COUNT - 2 });
    const untranslated = await list('filter=untranslated&limit=100');
    expect(untranslated.body.meta.total).toBe(KEY_COUNT - 2);
    expect(untranslated.body.data.every((d: { attributes: { untranslated: boolean } }) => d.attributes.untranslated)).toBe(true);
    // Search finds the key, the English text and the translation, in any case.
    expect((await list('search=FICHIERS')).body.data.map((d: { id: string }) => d.id)).toEqual(['locations.home']);
    expect((await list('search=sign_in_title')).body.data[0].id).toBe('auth.sign_in_title');

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: Awaited<ReturnType<typeof list>> = await list(`limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((d: { id: string }) => d.id));
      cursor = res.body.meta.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(KEY_COUNT);
    expect(new Set(seen).size).toBe(KEY_COUNT);
    expect([...seen].sort()).toEqual(seen);
  });

  it.each([
    ['filter=everything', 422, /all, changed or untranslated/],
    [`search=${'a'.repeat(201)}`, 422, /200 characters/],
    ['cursor=nonsense', 400, /cursor/],
    ['limit=1000', 400, /limit/],
  ])('refuses the strings query %s', async (query, status, message) => {
    const res = await admin.get(`/api/admin/languages/fr/strings?${query}`);
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(message);
  });

  it('overrides a built-in string; German then waits for its translation of it, and a reset brings the shipped text back', async () => {
    expect((await putStrings('en', { 'locations.recent': 'Latest uploads' })).status).toBe(200);
    expect((await catalogue('en')).body['locations.recent']).toBe('Latest uploads');
    // An added language that did not translate the key follows English.
    expect((await catalogue('fr')).body['locations.recent']).toBe('Latest uploads');
    const german = await admin.get('/api/admin/languages/de/strings?filter=untranslated');
    expect(german.body.data.map((d: { id: string }) => d.id)).toEqual(['locations.recent']);
    expect(await language('en')).toMatchObject({ changed: 1, untranslated: 0 });
    // Text equal to the shipped one is no change at all.
    const same = await putStrings('de', { 'locations.home': 'Dateien' });
    expect(same.body.data[0].attributes.changed).toBe(false);
    const reset = await putStrings('en', { 'locations.recent': null });
    expect(reset.body.data[0].attributes).toMatchObject({ value: en.locations.recent, changed: false });
    expect((await catalogue('en')).body['locations.recent']).toBe(en.locations.recent);
  });

  it('serves an edit made through one server process from another one on its next request', async () => {
    const other = await startServer({ db: server.db, env: server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : { DATA_DIR: server.dataDir } });
    try {
      const read = () => new Client(other.url).get('/translations/fr');
      const warm = await read();
      expect(warm.body['locations.home']).toBe('Fichiers');
      expect((await putStrings('fr', { 'locations.home': 'Mes fichiers' })).status).toBe(200);
      const fresh = await read();
      expect(fresh.body['locations.home']).toBe('Mes fichiers');
      expect(fresh.headers.get('etag')).toBe((await catalogue('fr')).headers.get('etag'));
      expect((await page('/sign-in', { Cookie: 'locale=fr' })).text).toContain('Bon retour');
      // A language deleted and added again under its code, with as many edits, is not the old one.
      const readPt = () => new Client(other.url).get('/translations/pt-BR');
      expect((await putStrings('pt-BR', { 'locations.home': 'Arquivos' })).status).toBe(200);
      expect((await readPt()).body['locations.home']).toBe('Arquivos');
      expect((await admin.request('/api/admin/languages/pt-BR', { method: 'DELETE' })).status).toBe(204);
      expect((await admin.post('/api/admin/languages', { code: 'pt-BR', name: 'Português' })).status).toBe(201);
      expect((await putStrings('pt-BR', { 'locations.trash': 'Lixeira' })).status).toBe(200);
      const again = await readPt();
      expect(again.body).toMatchObject({ 'locations.home': 'Files', 'locations.trash': 'Lixeira' });
    } finally {
      await other.stop();
    }
  });

  it('sets the instance default, which visitors without a choice get', async () => {
    const res = await admin.request('/api/admin/languages/fr', { method: 'PATCH', json: { default: true } });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.default).toBe(true);
    expect((await language('en')).default).toBe(false);
    expect(htmlTag((await page('/sign-in', {})).text)).toContain('lang="fr"');
    expect(htmlTag((await page('/sign-in', { 'Accept-Language': 'de' })).text)).toContain('lang="de"');
  });

  it.each([
    [{}, /Nothing to update/],
    [{ default: false }, /only be set to true/],
    [{ code: 'es' }, /Only name, rtl and default/],
    [{ name: '' }, /required/],
  ])('refuses the change %j with a 422', async (body, message) => {
    const res = await admin.request('/api/admin/languages/fr', { method: 'PATCH', json: body });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(message);
  });

  it('refuses to delete a built-in language or the default one, and 404s an unknown one', async () => {
    for (const code of ['en', 'de']) {
      const res = await admin.request(`/api/admin/languages/${code}`, { method: 'DELETE' });
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(/cannot be deleted/);
    }
    const fr = await admin.request('/api/admin/languages/fr', { method: 'DELETE' });
    expect(fr.status).toBe(422);
    expect(fr.body.message).toMatch(/default language/);
    expect((await admin.request('/api/admin/languages/xx', { method: 'DELETE' })).status).toBe(404);
    expect((await admin.request('/api/admin/languages/xx', { method: 'PATCH', json: { name: 'X' } })).status).toBe(404);
    expect((await admin.get('/api/admin/languages/xx/strings')).status).toBe(404);
  });

  it('deletes an added language with its strings; people who chose it fall back', async () => {
    expect((await admin.request('/api/admin/languages/en', { method: 'PATCH', json: { default: true } })).status).toBe(200);
    const res = await admin.request('/api/admin/languages/fr', { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect((await catalogue('fr')).status).toBe(404);
    expect(await language('fr')).toBeUndefined();
    expect(htmlTag((await page('/sign-in', { Cookie: 'locale=fr', 'Accept-Language': 'de' })).text)).toContain('lang="de"');
    expect(htmlTag((await page('/sign-in', { Cookie: 'locale=fr' })).text)).toContain('lang="en"');
    expect((await audit('language.delete'))[0].attributes.target).toEqual({ type: 'language', id: 'fr', label: 'Français' });
    // Added again, it starts from English once more: the old strings went with it.
    expect((await admin.post('/api/admin/languages', { code: 'fr', name: 'Français' })).body.data.attributes.changed).toBe(0);
    expect((await catalogue('fr')).body['locations.home']).toBe('Files');
  });

  it('lets no one but an admin in', async () => {
    const { client } = await registerUser(server.url);
    expect((await client.post('/api/admin/languages', { code: 'it', name: 'Italiano' })).status).toBe(403);
    expect((await client.request('/api/admin/languages/en/strings', { method: 'PUT', json: { strings: { 'locations.home': 'Mine' } } })).status).toBe(403);
    expect((await catalogue('en')).body['locations.home']).toBe('Files');
  });
});
