import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putSetting } from '../../src/server/settings/service.ts';
import { Client, registerUser } from '../support/client.ts';
import { browse, mkdir } from '../support/files.ts';
import { useSeededServer } from '../support/seed.ts';
import { createToken, deterministicBytes, storedSha256 } from '../support/uploads.ts';
import { createHash } from 'node:crypto';

const env = useSeededServer();

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4c70000000049454e44ae426082', 'hex');
const BODY = Buffer.concat([PNG, deterministicBytes(51, 0, 100_000)]);

/** A local web server; `hits` counts the requests it answered. */
function webServer(handler: http.RequestListener) {
  const state = { hits: 0, url: '', server: null as http.Server | null };
  return {
    state,
    async start() {
      state.server = http.createServer((req, res) => {
        state.hits += 1;
        handler(req, res);
      });
      await new Promise<void>((resolve) => state.server!.listen(0, '127.0.0.1', resolve));
      state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
    },
    stop: () => new Promise<void>((resolve) => (state.server ? state.server.close(() => resolve()) : resolve())),
  };
}

let otherPort = '';
const allowed = webServer((req, res) => {
  if (req.url === '/photo.png') return void res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': BODY.length }).end(BODY);
  if (req.url === '/named') return void res.writeHead(200, { 'Content-Disposition': `attachment; filename*=UTF-8''R%C3%A9sum%C3%A9.pdf` }).end('%PDF-1.4 tiny');
  if (req.url === '/to-loopback') return void res.writeHead(302, { Location: `http://127.0.0.1:${otherPort}/secret` }).end();
  if (req.url === '/to-metadata') return void res.writeHead(301, { Location: 'http://169.254.169.254/latest/meta-data/' }).end();
  if (req.url === '/huge') return void res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(Buffer.alloc(300 * 1024));
  res.writeHead(404).end();
});
const internal = webServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('internal secret'));

beforeAll(async () => {
  await allowed.start();
  await internal.start();
  otherPort = new URL(internal.state.url).port;
  await putSetting(env.seed, 'remote_upload_allowlist', [new URL(allowed.state.url).host]);
});
afterAll(async () => {
  await allowed.stop();
  await internal.stop();
});

async function importUrls(client: Client, urls: string[], parentId: string | null = null) {
  const res = await client.post('/api/upload/remote', { urls, parent_id: parentId });
  expect(res.status, res.text).toBe(202);
  expect(res.body.data).toMatchObject({ type: 'remote-upload', attributes: { status: 'running' } });
  const id: string = res.body.data.id;
  for (let i = 0; i < 200; i += 1) {
    const job = await client.get(`/api/upload/remote/${id}`);
    expect(job.status).toBe(200);
    if (job.body.data.attributes.status !== 'running') return job.body.data;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the import did not end');
}

describe('import from URL', () => {
  it('imports an allowlisted local URL into the folder and stores a remote-upload-done notification', async () => {
    const { client, user } = await registerUser(env.server.url);
    const folder = await mkdir(client, 'Imports');
    const job = await importUrls(client, [`${allowed.state.url}/photo.png`, `${allowed.state.url}/named`], folder);
    expect(job.attributes.status).toBe('done');
    expect(job.attributes.results).toMatchObject([
      { status: 'done', name: 'photo.png' },
      { status: 'done', name: 'Résumé.pdf' },
    ]);
    expect(await storedSha256(env.seed, job.attributes.results[0].item_id)).toBe(createHash('sha256').update(BODY).digest('hex'));
    const listing = await browse(client, folder);
    expect(listing.names.sort()).toEqual(['Résumé.pdf', 'photo.png']);
    expect(listing.body.data.find((i: any) => i.attributes.name === 'photo.png').attributes.mimetype).toBe('image/png');
    const notes = await env.seed.db.selectFrom('notifications').selectAll().where('user_id', '=', user.id).execute();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ category: 'remote-upload-done', read_at: null });
    expect(JSON.parse(notes[0]!.action!)).toMatchObject({ type: 'route', params: { id: folder, route: 'Files' } });
  });

  it('refuses loopback, metadata, private and CGNAT addresses, and a redirect to loopback, fetching nothing', async () => {
    const { client, user } = await registerUser(env.server.url);
    const hitsBefore = internal.state.hits;
    const urls = [
      `${internal.state.url}/secret`,
      `http://localhost:${otherPort}/secret`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.1.2.3/file',
      'http://100.64.0.1/file',
      'http://[::1]/file',
      `http://[::ffff:127.0.0.1]:${otherPort}/secret`,
      `${allowed.state.url}/to-loopback`,
      `${allowed.state.url}/to-metadata`,
    ];
    const job = await importUrls(client, urls);
    expect(job.attributes.results).toHaveLength(urls.length);
    for (const result of job.attributes.results) {
      expect(result.status, result.url).toBe('failed');
      expect(result.message, result.url).toMatch(/refused/);
    }
    expect(internal.state.hits).toBe(hitsBefore);
    expect((await browse(client)).names).toEqual([]);
    const notes = await env.seed.db.selectFrom('notifications').select('description').where('user_id', '=', user.id).execute();
    expect(notes[0]!.description).toContain(`0 of ${urls.length}`);
  });

  it('stops a download past the upload limit and keeps nothing of it', async () => {
    const { client } = await registerUser(env.server.url);
    await putSetting(env.seed, 'upload_limit_bytes', 100 * 1024);
    try {
      const job = await importUrls(client, [`${allowed.state.url}/huge`]);
      expect(job.attributes.results[0]).toMatchObject({ status: 'failed', message: expect.stringContaining('100 KB') });
    } finally {
      await putSetting(env.seed, 'upload_limit_bytes', 0);
    }
    expect((await browse(client)).names).toEqual([]);
  });

  it('refuses bad input, a signed-out client, a wrong token, another user\'s folder and job', async () => {
    const owner = await registerUser(env.server.url);
    const folder = await mkdir(owner.client, 'Mine');
    const job = await importUrls(owner.client, [`${allowed.state.url}/named`], folder);
    expect((await owner.client.post('/api/upload/remote', { urls: ['ftp://example.com/x'] })).status).toBe(422);
    expect((await owner.client.post('/api/upload/remote', { urls: [] })).status).toBe(422);
    expect((await owner.client.post('/api/upload/remote', { urls: ['not a url'] })).status).toBe(422);

    const anonymous = new Client(env.server.url);
    expect((await anonymous.post('/api/upload/remote', { urls: [`${allowed.state.url}/named`] })).status).toBe(401);
    expect((await anonymous.get(`/api/upload/remote/${job.id}`)).status).toBe(401);
    expect((await anonymous.get(`/api/upload/remote/${job.id}`, { bearer: 'cd_notarealtokennotarealtokennotar' })).status).toBe(401);

    const other = await registerUser(env.server.url);
    expect((await other.client.get(`/api/upload/remote/${job.id}`)).status).toBe(404);
    expect((await other.client.post('/api/upload/remote', { urls: [`${allowed.state.url}/named`], parent_id: folder })).status).toBe(404);

    // A script with a bearer token may import too.
    const token = await createToken(other.client);
    const scripted = await anonymous.post('/api/upload/remote', { urls: [`${allowed.state.url}/named`] }, { bearer: token, origin: null, xrw: false });
    expect(scripted.status).toBe(202);
    expect((await browse(owner.client, folder)).names).toEqual(['Résumé.pdf']);
  });
});
