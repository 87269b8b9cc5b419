import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findItem } from '../../src/server/files/queries.ts';
import { THUMBNAIL_SIZE_NAMES, thumbnailBlobKeys } from '../../src/server/previews/sizes.ts';
import { getSettings } from '../../src/server/settings/service.ts';
import { registerUser, type Client } from '../support/client.ts';
import { download } from '../support/downloads.ts';
import { startS3, type RunningS3 } from '../support/s3.ts';
import { withSeed } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { uploadForm } from '../support/uploads.ts';

// `npm run storage:migrate -- --to s3` on an installation with files, thumbnails and an avatar on
// the local disk, against a real S3-compatible server (s3rver): killed after its third upload, run
// again, then the server started on the bucket serves every byte as before.
const ROOT = path.resolve(import.meta.dirname, '../..');
const SCRIPT = path.join(ROOT, 'scripts/storage-migrate.ts');
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

let server: RunningServer;
let s3: RunningS3;
beforeAll(async () => {
  server = await startServer({ storage: 'local' });
  s3 = await startS3();
});
afterAll(async () => {
  await server?.stop();
  await s3?.stop();
});

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: string[];
  stderr: string;
}

/** Runs the script on the server's data dir and database (cwd: the data dir, so no .env is read). */
function migrate(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const childEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DATA_DIR: server.dataDir,
    ...(server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {}),
    ...s3.env,
    STORAGE_DRIVER: 'local',
    ...env,
  };
  delete childEnv.NODE_OPTIONS;
  const child = spawn(process.execPath, [SCRIPT, ...args], { cwd: server.dataDir, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal, lines: stdout.split('\n').filter(Boolean), stderr })));
}

const keysOf = (run: Run, event: string) => run.lines.filter((l) => l.startsWith(`${event}\t`)).map((l) => l.split('\t')[1]!);

async function upload(client: Client, bytes: Buffer, name: string): Promise<string> {
  const res = await uploadForm(client, bytes, { filename: name, parent_id: '', path: '' }, { type: name.endsWith('.png') ? 'image/png' : 'application/octet-stream' });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

describe('npm run storage:migrate', () => {
  it('refuses a missing or unknown --to, changing nothing', async () => {
    for (const args of [[], ['--to', 'ftp']]) {
      const run = await migrate(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('--to must be s3 or local');
    }
    const run = await migrate(['--to', 's3', '--concurrency', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--concurrency must be');
    expect(existsSync(path.join(server.dataDir, 'storage-migrate-to-s3.jsonl'))).toBe(false);
  });

  it('stops with the variable to fix when the bucket is missing', async () => {
    const run = await migrate(['--to', 's3'], { S3_BUCKET: 'no-such-bucket' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('S3_BUCKET: the bucket "no-such-bucket" does not exist');
  });

  it('copies files, thumbnails and an avatar, survives a kill after the third upload, and the server on S3 serves them byte-identical', async () => {
    const { client } = await registerUser(server.url);
    const files: Record<string, Buffer> = {
      'small.txt': Buffer.from('hello, bucket'),
      'empty.bin': Buffer.alloc(0),
      'random.bin': randomBytes(300 * 1024 + 7),
      // Over the 8 MiB part size: a multipart upload to the bucket.
      'large.bin': randomBytes(9 * 1024 * 1024 + 3),
      'picture.png': await sharp({ create: { width: 700, height: 500, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer(),
    };
    const ids: Record<string, string> = {};
    for (const [name, bytes] of Object.entries(files)) ids[name] = await upload(client, bytes, name);
    // The server's own worker makes the thumbnails after the upload: wait for the row to name them.
    const thumbnailKey = await withSeed(server, async (seed) => {
      let key: string | null | undefined;
      await expect.poll(async () => (key = (await findItem(seed.db, ids['picture.png']!))?.thumbnail_key), { timeout: 15_000 }).toBeTruthy();
      return key!;
    });
    const form = new FormData();
    form.set('_method', 'PATCH');
    form.set('name', 'avatar');
    form.set('avatar', new File([await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ff6600' } }).png().toBuffer()], 'me.png', { type: 'image/png' }));
    const avatarRes = await client.request('/api/user/settings', { method: 'POST', body: form });
    expect(avatarRes.status).toBe(200);
    const avatar = avatarRes.body.data.attributes.avatar as Record<string, string>;
    const before: Record<string, string> = {};
    for (const size of THUMBNAIL_SIZE_NAMES) {
      const thumb = await download(server.url, `/thumbnail/${ids['picture.png']}/${size}`, client);
      if (thumb.status === 200) before[`thumb-${size}`] = sha256(thumb.body);
    }
    for (const [size, url] of Object.entries(avatar)) before[`avatar-${size}`] = sha256((await download(server.url, url, client)).body);
    expect(Object.keys(before)).toHaveLength(THUMBNAIL_SIZE_NAMES.length + Object.keys(avatar).length);
    await server.kill();

    // One blob at a time, killed (SIGKILL) once the third is uploaded, before it is recorded.
    const first = await migrate(['--to', 's3', '--concurrency', '1'], { CLOUD_DRIVE_FAULT: 'storage-migrate-after-upload' });
    expect(first.signal, first.stderr).toBe('SIGKILL');
    expect(keysOf(first, 'copied')).toHaveLength(2);
    const settingsAfterKill = await withSeed(server, (seed) => getSettings(seed));
    expect(settingsAfterKill.storage_driver).toBe('local');

    const second = await migrate(['--to', 's3']);
    expect(second.code, second.stderr).toBe(0);
    const blobCount = 5 + thumbnailBlobKeys(thumbnailKey).length + Object.keys(avatar).length;
    const summary = second.lines.find((l) => l.startsWith(`${blobCount} blobs`));
    expect(summary, second.lines.join('\n')).toContain(`${blobCount - 3} copied, 1 already there and verified, 2 verified by an earlier run, 0 failed`);
    // Nothing copied twice: the second run skipped the first run's two, adopted the third, copied the rest once.
    expect(keysOf(second, 'skipped').sort()).toEqual(keysOf(first, 'copied').sort());
    expect(keysOf(second, 'copied').filter((k) => keysOf(first, 'copied').includes(k))).toEqual([]);
    expect(second.lines.join('\n')).toContain('Now set STORAGE_DRIVER=s3');
    expect((await withSeed(server, (seed) => getSettings(seed))).storage_driver).toBe('s3');
    const journal = (await readFile(path.join(server.dataDir, 'storage-migrate-to-s3.jsonl'), 'utf8')).trim().split('\n');
    expect(journal).toHaveLength(blobCount);

    // A third run finds everything verified: nothing copied.
    const third = await migrate(['--to', 's3']);
    expect(third.code).toBe(0);
    expect(third.lines.join('\n')).toContain(`0 copied, 0 already there and verified, ${blobCount} verified by an earlier run, 0 failed`);

    // The local blobs out of the way: whatever the server serves now comes from the bucket.
    await rename(path.join(server.dataDir, 'blobs'), path.join(server.dataDir, 'blobs.migrated'));
    server = await startServer({ reuse: server, env: s3.env });
    for (const [name, bytes] of Object.entries(files)) {
      const res = await download(server.url, `/file/${ids[name]}`, client);
      expect(res.status, name).toBe(200);
      expect(sha256(res.body), name).toBe(sha256(bytes));
    }
    for (const size of THUMBNAIL_SIZE_NAMES) {
      if (!before[`thumb-${size}`]) continue;
      const thumb = await download(server.url, `/thumbnail/${ids['picture.png']}/${size}`, client);
      expect(sha256(thumb.body), size).toBe(before[`thumb-${size}`]);
    }
    for (const [size, url] of Object.entries(avatar)) expect(sha256((await download(server.url, url, client)).body), size).toBe(before[`avatar-${size}`]);
    expect(existsSync(path.join(server.dataDir, 'blobs', 'files'))).toBe(false);

    // And back: --to local copies the bucket into DATA_DIR/blobs, equal to what was there before.
    await server.kill();
    const back = await migrate(['--to', 'local']);
    expect(back.code, back.stderr).toBe(0);
    expect(back.lines.join('\n')).toContain(`${blobCount} copied, 0 already there and verified, 0 verified by an earlier run, 0 failed`);
    for (const key of keysOf(second, 'copied').concat(keysOf(second, 'skipped'), keysOf(second, 'adopted'))) {
      const [now, then] = await Promise.all([readFile(path.join(server.dataDir, 'blobs', key)), readFile(path.join(server.dataDir, 'blobs.migrated', key))]);
      expect(sha256(now), key).toBe(sha256(then));
    }
    expect((await withSeed(server, (seed) => getSettings(seed))).storage_driver).toBe('local');
    server = await startServer({ reuse: server });
  });
});
