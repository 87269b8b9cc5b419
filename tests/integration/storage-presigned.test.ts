import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, registerUser } from '../support/client.ts';
import { download } from '../support/downloads.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { uploadForm } from '../support/uploads.ts';

// The admin setting s3_presigned_downloads on STORAGE_DRIVER=s3 (s3rver): a file download answers
// 302 to a presigned GET of the bucket, after the same access checks; off, the app streams.
const ADMIN = { email: 'presigned-admin@example.test', password: 'presigned admin password' };
let server: RunningServer;
let admin: Client;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

beforeAll(async () => {
  server = await startServer({ storage: 's3', env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  admin = new Client(server.url);
  expect((await admin.post('/login', ADMIN)).status).toBe(200);
});
afterAll(async () => {
  await server?.stop();
});

const setPresigned = (on: unknown, client = admin) => client.request('/api/admin/settings/others', { method: 'PUT', json: { s3_presigned_downloads: on } });

async function upload(client: Client, bytes: Buffer, name: string): Promise<string> {
  const res = await uploadForm(client, bytes, { filename: name, parent_id: '', path: '' }, { type: 'application/octet-stream' });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

describe('presigned downloads on S3', () => {
  it('is off by default, refused to a non-admin and for a bad value, and audited when changed', async () => {
    expect((await admin.get('/api/admin/settings/others')).body.data.attributes.s3_presigned_downloads).toBe(false);
    expect((await admin.get('/api/admin/settings/others')).body.meta.storage_driver).toBe('s3');
    const { client } = await registerUser(server.url);
    expect((await setPresigned(true, client)).status).toBe(403);
    expect((await setPresigned(true, new Client(server.url))).status).toBe(401);
    const bad = await setPresigned('sometimes');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toContain('s3_presigned_downloads');
    expect((await admin.get('/api/admin/settings/others')).body.data.attributes.s3_presigned_downloads).toBe(false);
  });

  it('redirects the owner to the bucket with the app’s Content-Disposition, byte-identical and ranged, and refuses others before any redirect', async () => {
    const { client } = await registerUser(server.url);
    const bytes = randomBytes(2 * 1024 * 1024 + 5);
    const id = await upload(client, bytes, 'Report 2026 – final.bin');

    // Off: streamed by the app; its headers are the reference.
    const streamed = await download(server.url, `/file/${id}?download=1`, client);
    expect(streamed.status).toBe(200);
    expect(sha256(streamed.body)).toBe(sha256(bytes));

    expect((await setPresigned(true)).status).toBe(200);
    const audit = await admin.get('/api/admin/audit?target_type=setting&target_id=others');
    expect(JSON.stringify(audit.body.data[0]?.attributes)).toContain('s3_presigned_downloads');

    const redirect = await download(server.url, `/file/${id}?download=1`, client);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('cache-control')).toBe('no-store');
    const location = redirect.headers.get('location')!;
    expect(location.startsWith(`${server.s3!.endpoint}/`)).toBe(true);
    expect(new URL(location).searchParams.get('X-Amz-Expires')).toBe('300');
    const fromBucket = await fetch(location);
    expect(fromBucket.status).toBe(200);
    expect(sha256(Buffer.from(await fromBucket.arrayBuffer()))).toBe(sha256(bytes));
    expect(fromBucket.headers.get('content-disposition')).toBe(streamed.headers.get('content-disposition'));
    expect(fromBucket.headers.get('content-type')).toBe(streamed.headers.get('content-type'));
    // Range is the bucket's business now.
    const ranged = await fetch(location, { headers: { Range: 'bytes=1048570-1048585' } });
    expect(ranged.status).toBe(206);
    expect(sha256(Buffer.from(await ranged.arrayBuffer()))).toBe(sha256(bytes.subarray(1048570, 1048586)));

    // Another user and a signed-out client: refused as before, no Location.
    const { client: other } = await registerUser(server.url);
    for (const who of [other, null]) {
      const refused = await download(server.url, `/file/${id}`, who);
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.headers.get('location')).toBeNull();
    }

    // Off again: streamed by the app.
    expect((await setPresigned(false)).status).toBe(200);
    const again = await download(server.url, `/file/${id}`, client);
    expect(again.status).toBe(200);
    expect(sha256(again.body)).toBe(sha256(bytes));
  });
});
