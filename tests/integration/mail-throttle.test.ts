import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { putSettings, SETTING_DEFAULTS } from '../../src/server/settings/service.ts';
import { Client, registerUser } from '../support/client.ts';
import { mkdir } from '../support/files.ts';
import { useSeededServer } from '../support/seed.ts';

const env = useSeededServer();

interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

async function outbox(): Promise<Mail[]> {
  const raw = await readFile(path.join(env.server.dataDir, 'mail', 'outbox.jsonl'), 'utf8').catch(() => '');
  return raw.trim() ? raw.trim().split('\n').map((line) => JSON.parse(line) as Mail) : [];
}

const LIMIT_KEYS = ['mail_max_recipients', 'mail_per_user_per_hour', 'mail_per_instance_per_hour', 'mail_system_per_recipient_per_hour', 'mail_system_per_instance_per_hour'] as const;

afterEach(async () => {
  // Each test starts with the default limits and empty mail counters.
  await putSettings(env.seed, Object.fromEntries(LIMIT_KEYS.map((k) => [k, SETTING_DEFAULTS[k]])));
  await env.seed.db.deleteFrom('rate_limits').where('key', 'like', 'mail:%').execute();
});

const addresses = (n: number, tag = 'r') => Array.from({ length: n }, (_, i) => `${tag}${i}.${Date.now().toString(36)}@example.test`);

async function ownerWithFolders(n: number) {
  const owner = await registerUser(env.server.url);
  const folders: string[] = [];
  for (let i = 0; i < n; i += 1) folders.push(await mkdir(owner.client, `Folder ${i}`));
  return { ...owner, folders };
}

const shares = (userId: string) => env.seed.db.selectFrom('shares').select('id').where('user_id', '=', userId).execute();
const requests = (userId: string) => env.seed.db.selectFrom('upload_requests').select('id').where('user_id', '=', userId).execute();

describe('mail a user can send to any address', () => {
  it('refuses more recipients than mail_max_recipients in one call (422), saving and sending nothing', async () => {
    const { client, user, folders } = await ownerWithFolders(1);
    const before = (await outbox()).length;
    const res = await client.post(`/api/share/${folders[0]}`, { type: 'folder', emails: addresses(6) });
    expect(res.status, res.text).toBe(422);
    expect(res.body.message).toBe('At most 5 email addresses at once.');
    expect(res.body.errors.emails).toBeDefined();
    expect(await shares(user.id)).toHaveLength(0);
    expect((await outbox()).length).toBe(before);
    // Five are fine.
    expect((await client.post(`/api/share/${folders[0]}`, { type: 'folder', emails: addresses(5) })).status).toBe(201);
    expect((await outbox()).length).toBe(before + 5);
  });

  it('stops a user at mail_per_user_per_hour across shares, link changes and upload requests (429, Retry-After), changing nothing', async () => {
    await putSettings(env.seed, { mail_per_user_per_hour: 4 });
    const { client, user, folders } = await ownerWithFolders(3);
    const before = (await outbox()).length;

    expect((await client.post(`/api/share/${folders[0]}`, { type: 'folder', emails: addresses(2) })).status).toBe(201);
    const req = await client.post('/api/upload-request', { folder_id: folders[1], email: addresses(1)[0] });
    expect(req.status, req.text).toBe(201);
    expect((await outbox()).length).toBe(before + 3);

    // One left: two more addresses are refused whole, and the share is not made.
    const over = await client.post(`/api/share/${folders[2]}`, { type: 'folder', emails: addresses(2) });
    expect(over.status, over.text).toBe(429);
    expect(over.body.message).toMatch(/at most 4 emails an hour/);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(await shares(user.id)).toHaveLength(1);

    // The last one still goes; then every path is refused, and nothing is made.
    const token = (await env.seed.db.selectFrom('shares').select('token').where('user_id', '=', user.id).executeTakeFirstOrThrow()).token;
    expect((await client.post(`/api/share/${token}`, { _method: 'patch', emails: addresses(1) })).status).toBe(200);
    const patched = await client.post(`/api/share/${token}`, { _method: 'patch', permission: 'editor', emails: addresses(1) });
    expect(patched.status).toBe(429);
    const link = await env.seed.db.selectFrom('shares').select('permission').where('token', '=', token).executeTakeFirstOrThrow();
    expect(link.permission).toBe('visitor');
    const refusedRequest = await client.post('/api/upload-request', { name: 'New folder for it', email: addresses(1)[0] });
    expect(refusedRequest.status).toBe(429);
    expect(await requests(user.id)).toHaveLength(1);
    expect((await outbox()).length).toBe(before + 4);

    // Another user has a budget of their own.
    const other = await ownerWithFolders(1);
    expect((await other.client.post(`/api/share/${other.folders[0]}`, { type: 'folder', emails: addresses(2) })).status).toBe(201);
  });

  it('stops all users together at mail_per_instance_per_hour', async () => {
    await putSettings(env.seed, { mail_per_instance_per_hour: 3 });
    const a = await ownerWithFolders(1);
    const b = await ownerWithFolders(2);
    expect((await a.client.post(`/api/share/${a.folders[0]}`, { type: 'folder', emails: addresses(2) })).status).toBe(201);
    expect((await b.client.post(`/api/share/${b.folders[0]}`, { type: 'folder', emails: addresses(1) })).status).toBe(201);
    const over = await b.client.post(`/api/share/${b.folders[1]}`, { type: 'folder', emails: addresses(1) });
    expect(over.status).toBe(429);
    expect(over.body.message).toMatch(/as many emails as it may this hour/);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    // b's refused mail was not counted against b.
    const counter = await env.seed.db.selectFrom('rate_limits').select('count').where('key', '=', `mail:user:${b.user.id}`).executeTakeFirstOrThrow();
    expect(Number(counter.count)).toBe(1);
  });

  it('keeps user text out of the subject: a fixed text with the sender’s name on one line; the body escapes it in HTML', async () => {
    const { client, user, folders } = await ownerWithFolders(1);
    await env.seed.db.updateTable('users').set({ name: 'Eve\r\nBcc: victim@example.test\u202E' }).where('id', '=', user.id).execute();
    await client.post(`/api/rename/${folders[0]}`, { _method: 'patch', name: 'WIN <b>FREE<b> money' });
    const to = addresses(1)[0]!;
    expect((await client.post(`/api/share/${folders[0]}`, { type: 'folder', emails: [to] })).status).toBe(201);
    const req = await client.post('/api/upload-request', { name: 'Prize <img src=x onerror=alert(1)>', notes: 'Click <a href="http://evil.test">here</a>\nnow', email: to });
    expect(req.status, req.text).toBe(201);
    const [shareMail, requestMail] = (await outbox()).filter((m) => m.to === to);
    expect(shareMail!.subject).toBe('Eve Bcc: victim@example.test shared a folder with you');
    expect(requestMail!.subject).toBe('Eve Bcc: victim@example.test asks you to upload files');
    for (const mail of [shareMail!, requestMail!]) {
      expect(mail.subject).not.toMatch(/[\r\n\u202E]/);
      expect(mail.subject).not.toMatch(/FREE|Prize|evil/);
    }
    expect(shareMail!.text).toContain('WIN <b>FREE<b> money');
    expect(shareMail!.html).toContain('WIN &lt;b&gt;FREE&lt;b&gt; money');
    expect(requestMail!.html).toContain('Prize &lt;img src=x onerror=alert(1)&gt;');
    expect(requestMail!.html).toContain('Click &lt;a href=&quot;http://evil.test&quot;&gt;here&lt;/a&gt;<br>now');
    expect(requestMail!.html).not.toMatch(/<img|<a href="http:\/\/evil/);
  });
});

describe('the product’s own mail', () => {
  it('is not blocked by a user who spent their sharing budget, nor by the instance’s', async () => {
    await putSettings(env.seed, { mail_per_user_per_hour: 1, mail_per_instance_per_hour: 1 });
    const { client, email, folders } = await ownerWithFolders(2);
    expect((await client.post(`/api/share/${folders[0]}`, { type: 'folder', emails: addresses(1) })).status).toBe(201);
    expect((await client.post(`/api/share/${folders[1]}`, { type: 'folder', emails: addresses(1) })).status).toBe(429);
    const res = await new Client(env.server.url).post('/forgot-password', { email });
    expect(res.status, res.text).toBeLessThan(300);
    await expect.poll(async () => (await outbox()).filter((m) => m.to === email && /Reset your/.test(m.subject)).length).toBe(1);
  });

  it('is limited per recipient (mail_system_per_recipient_per_hour), answering the same', async () => {
    await putSettings(env.seed, { mail_system_per_recipient_per_hour: 2 });
    const { email } = await registerUser(env.server.url);
    for (let i = 0; i < 3; i += 1) {
      const res = await new Client(env.server.url).post('/forgot-password', { email });
      expect(res.status, res.text).toBeLessThan(300);
    }
    // Sign-up's verification mail and the first reset are sent; the later resets are refused in the
    // background (logged), never sent.
    await expect.poll(() => env.server.logs.filter((l) => l.includes('password reset mail not sent') && l.includes('Too many emails to this address')).length).toBe(2);
    const mails = (await outbox()).filter((m) => m.to === email);
    expect(mails.map((m) => m.subject.split(' ')[0])).toEqual(['Confirm', 'Reset']);
  });
});
