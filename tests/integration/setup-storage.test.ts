import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3BlobStore } from '../../src/server/blobs/s3-store.ts';
import type { BlobStore } from '../../src/server/blobs/store.ts';
import { createLogger } from '../../src/server/logging/logger.ts';
import { setupDir } from '../../src/server/setup/token.ts';
import { Client } from '../support/client.ts';
import { S3_KEY, startS3, type RunningS3 } from '../support/s3.ts';
import { withSeed } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { uploadForm } from '../support/uploads.ts';

// The setup wizard's environment step with S3 storage: "Check storage" (write, read, delete a probe
// object) against a real S3-compatible server (s3rver), saving the bucket (its secret encrypted),
// and the installed server using it unless STORAGE_DRIVER is set.
const APP = { app_name: 'Bucket Drive', app_description: '', contact_email: 'contact@example.test', registration_open: true, default_storage_gb: 2, subscription_type: 'none' };
const ADMIN = { name: 'Ada Admin', email: 'ada-s3@example.test', password: 'correct horse battery', password_confirmation: 'correct horse battery' };
const SECRET = S3_KEY;

let server: RunningServer;
let s3: RunningS3;
let token: string;
let wizard: Client;
let ENV: Record<string, unknown>;
let store: BlobStore;

beforeAll(async () => {
  s3 = await startS3();
  server = await startServer({ installed: false, storage: 'local' });
  token = /"setup_token":"([^"]+)"/.exec(server.logs.find((l) => l.includes('"setup_token"'))!)![1]!;
  wizard = new Client(server.url);
  ENV = {
    storage_driver: 's3',
    s3_endpoint: s3.endpoint,
    s3_region: 'us-east-1',
    s3_bucket: s3.bucket,
    s3_access_key_id: S3_KEY,
    s3_secret_access_key: SECRET,
    s3_force_path_style: true,
    s3_checksums: 'when_required',
    mail_driver: 'log',
    mail_from_address: 'drive@example.test',
    mail_from_name: 'Drive',
  };
});
afterAll(async () => {
  await server?.stop();
  await s3?.stop();
});

const step = (p: string, json: unknown, client = wizard, headers: Record<string, string> = { 'X-Setup-Token': token }) => client.request(`/api/setup/${p}`, { method: 'POST', json, headers });
const state = async () => (await wizard.get('/api/setup/state', { headers: { 'X-Setup-Token': token } })).body.data;
const progressFile = () => readFileSync(path.join(setupDir(server.dataDir), 'progress.json'), 'utf8');

describe('the environment step with S3 storage', () => {
  it('refuses the storage check out of order and without the setup token', async () => {
    expect((await step('test-storage', ENV)).status).toBe(409);
    expect((await step('test-storage', ENV, new Client(server.url), {})).status).toBe(401);
    expect((await step('status-check', {})).status).toBe(200);
    expect((await step('purchase-code', { accept_license: true })).status).toBe(200);
    expect((await step('database', { driver: 'embedded' })).status).toBe(200);
  });

  it('checks a good bucket, and names a wrong key, a missing bucket and an unreachable endpoint', async () => {
    const good = await step('test-storage', ENV);
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body.message).toContain(`The bucket "${s3.bucket}" works`);
    // The probe object is gone again.
    store = await createS3BlobStore(s3.settings, createLogger('silent'));
    const left: string[] = [];
    for await (const blob of store.list('health/')) left.push(blob.key);
    expect(left).toEqual([]);

    const wrongKey = await step('test-storage', { ...ENV, s3_access_key_id: 'WRONGKEY', s3_secret_access_key: 'wrong secret' });
    expect(wrongKey.status).toBe(422);
    expect(wrongKey.body.message).toMatch(/refused the access key or its secret .*InvalidAccessKeyId/);
    expect(wrongKey.body.message).not.toContain('wrong secret');

    const missing = await step('test-storage', { ...ENV, s3_bucket: 'no-such-bucket' });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toContain('The bucket "no-such-bucket" does not exist');

    const unreachable = await step('test-storage', { ...ENV, s3_endpoint: 'http://127.0.0.1:1' });
    expect(unreachable.status).toBe(422);
    expect(unreachable.body.message).toContain('The S3 endpoint http://127.0.0.1:1 could not be reached');
  });

  it('refuses bad input with the field named, changing nothing', async () => {
    for (const [body, field] of [
      [{ ...ENV, s3_bucket: 'Not A Bucket' }, 's3_bucket'],
      [{ ...ENV, s3_bucket: '' }, 's3_bucket'],
      [{ ...ENV, s3_endpoint: 'ftp://files' }, 's3_endpoint'],
      [{ ...ENV, s3_region: 'Europe West' }, 's3_region'],
      [{ ...ENV, s3_checksums: 'always' }, 's3_checksums'],
      [{ ...ENV, storage_driver: 'ftp' }, 'storage_driver'],
      [{ ...ENV, s3_access_key_id: '' }, 's3_access_key_id'],
      [{ ...ENV, s3_secret_access_key: '' }, 's3_secret_access_key'],
      [{ ...ENV, storage_driver: 'local' }, 'storage_driver'],
    ] as const) {
      const res = await step('test-storage', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors ?? {}), JSON.stringify(body)).toContain(field);
    }
    const refused = await step('environment', { ...ENV, s3_access_key_id: 'WRONGKEY', s3_secret_access_key: 'wrong secret' });
    expect(refused.status).toBe(422);
    expect((await state()).completed).toEqual(['status-check', 'purchase-code', 'database']);
  });

  it('saves the bucket with its secret sealed, keeps it when left empty, and the installed server stores blobs there', async () => {
    expect((await step('environment', ENV)).status).toBe(200);
    const saved = (await state()).values.environment;
    expect(saved).toMatchObject({ storage_driver: 's3', s3_bucket: s3.bucket, s3_secret_access_key: '' });
    // s3rver's secret equals its key id: the file holds it only as the key id, the secret sealed.
    const kept = JSON.parse(progressFile()).values.environment;
    expect(kept.s3_secret_access_key).toBe('');
    expect(kept.s3_secret_sealed).toMatch(/^enc:v1:/);
    // Saved again with the secret left empty (the form never gets it back): the sealed one is kept.
    expect((await step('environment', { ...ENV, s3_secret_access_key: '' })).status).toBe(200);
    expect((await step('test-storage', { ...ENV, s3_secret_access_key: '' })).status).toBe(200);
    expect((await step('app-setup', APP)).status).toBe(200);
    const browser = new Client(server.url);
    expect((await browser.post('/api/setup/token', { token })).status).toBe(200);
    expect((await browser.post('/api/setup/admin-setup', ADMIN)).status).toBe(201);

    const rows = await withSeed(server, (seed) => seed.db.selectFrom('settings').select(['key', 'value']).where('key', 'in', ['storage_driver', 'storage_s3', 's3_secret_access_key']).execute());
    const value = (key: string) => JSON.parse(rows.find((r) => r.key === key)!.value);
    expect(value('storage_driver')).toBe('s3');
    expect(value('storage_s3')).toMatchObject({ bucket: s3.bucket, endpoint: s3.endpoint, access_key_id: S3_KEY, force_path_style: true });
    expect(value('s3_secret_access_key')).toMatch(/^enc:v1:/);

    // Restarted without STORAGE_DRIVER: the stored bucket is the storage.
    await server.kill();
    server = await startServer({ reuse: server });
    const admin = new Client(server.url);
    expect((await admin.post('/login', { email: ADMIN.email, password: ADMIN.password })).status).toBe(200);
    expect((await admin.get('/api/admin/settings/server')).body.data.storage_driver).toBe('s3');
    const up = await uploadForm(admin, Buffer.from('in the bucket'), { filename: 'a.txt', parent_id: '', path: '' }, { type: 'text/plain' });
    expect(up.status, up.text).toBe(201);
    const files: string[] = [];
    for await (const blob of store.list('files/')) files.push(blob.key);
    expect(files).toHaveLength(1);
    expect(existsSync(path.join(server.dataDir, 'blobs', files[0]!))).toBe(false);

    // STORAGE_DRIVER in the environment wins.
    await server.kill();
    server = await startServer({ reuse: server, env: { STORAGE_DRIVER: 'local' } });
    const again = new Client(server.url);
    expect((await again.post('/login', { email: ADMIN.email, password: ADMIN.password })).status).toBe(200);
    expect((await again.get('/api/admin/settings/server')).body.data.storage_driver).toBe('local');
  });
});
