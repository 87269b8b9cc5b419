import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { putSetting } from '../../src/server/settings/service.ts';
import { registerUser } from '../support/client.ts';
import { seedFile, withSeed } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { uploadForm } from '../support/uploads.ts';

/**
 * The blob reconciler, through `npm run fsck` (scripts/fsck.ts) and the server's scheduled run:
 * orphan blobs (old ones removed with --repair, young ones kept), rows whose blob is missing,
 * keys of unknown folders left alone.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const DAY = 24 * 60 * 60;

async function fsck(server: RunningServer, ...args: string[]): Promise<{ code: number; lines: string[]; report: Record<string, number> }> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: server.dataDir, LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  if (server.databaseUrl) env.DATABASE_URL = server.databaseUrl;
  let stdout: string;
  let code = 0;
  try {
    ({ stdout } = await run(process.execPath, ['scripts/fsck.ts', '--json', ...args], { cwd: ROOT, env }));
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    if (typeof e.code !== 'number' || e.code > 1) throw new Error(`fsck failed: ${e.stderr}`);
    ({ stdout, code } = e);
  }
  const lines = stdout.trim().split('\n');
  return { code, lines: lines.slice(0, -1), report: JSON.parse(lines.at(-1)!) };
}

/** A blob file written behind the product's back, `ageSeconds` old. */
async function plant(server: RunningServer, key: string, ageSeconds: number): Promise<string> {
  const file = path.join(server.dataDir, 'blobs', key);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `planted ${key}`);
  const at = new Date(Date.now() - ageSeconds * 1000);
  await utimes(file, at, at);
  return file;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

const exists = (file: string) => stat(file).then(() => true, () => false);

describe('blob reconciler', () => {
  it('fsck reports orphans and missing blobs; --repair removes old orphans only', async () => {
    const server = await startServer();
    try {
      const { client, user } = await registerUser(server.url);
      const uploaded = await uploadForm(client, 'kept bytes', { filename: 'kept.txt', parent_id: '' });
      expect(uploaded.status).toBe(201);
      const owner = String(user.id).toLowerCase();
      const { lost, pending } = await withSeed(server, async (seed) => {
        // A row whose blob is gone; a blob named by an upload intent (finishing right now).
        const lost = await seedFile(seed, user.id, { name: 'lost.txt' });
        await rm(path.join(server.dataDir, 'blobs', lost.blobKey));
        const pending = `files/${owner}/${randomUUID()}`;
        await seed.db.insertInto('pending_blobs').values({ blob_key: pending, owner_id: user.id, upload_id: null, finish: null, created_at: new Date().toISOString() }).execute();
        // Referenced the other ways: a logo in a setting, the user's avatar, the uploaded file's thumbnails.
        await putSetting(seed, 'logo_horizontal', `/branding/${'a'.repeat(32)}.png`);
        await seed.db.updateTable('users').set({ avatar_key: 'abcdef0123456789' }).where('id', '=', user.id).execute();
        await seed.db.updateTable('items').set({ thumbnail_key: `thumbnails/${owner}/${uploaded.body.data.id}` }).where('id', '=', uploaded.body.data.id).execute();
        return { lost, pending };
      });
      for (const size of ['xs', 'sm', 'md']) {
        await plant(server, `avatars/${user.id}/abcdef0123456789-${size}.webp`, 2 * DAY);
        await plant(server, `thumbnails/${owner}/${uploaded.body.data.id}-${size}.webp`, 2 * DAY);
      }
      const logo = await plant(server, `branding/${'a'.repeat(32)}.png`, 2 * DAY);
      const oldLogo = `branding/${'b'.repeat(32)}.png`;
      // The uploaded file's blob is a week old by now: referenced, so kept whatever its age.
      const keptKey = (await readdir(path.join(server.dataDir, 'blobs', 'files', owner))).map((n) => `files/${owner}/${n}`).find((k) => k !== lost.blobKey)!;
      const kept = path.join(server.dataDir, 'blobs', keptKey);
      const weekAgo = new Date(Date.now() - 7 * DAY * 1000);
      await utimes(kept, weekAgo, weekAgo);
      const oldOrphan = `files/${owner}/${randomUUID()}`;
      const oldThumbnail = `thumbnails/${owner}/${randomUUID()}-sm.webp`;
      const oldAvatar = `avatars/${randomUUID()}/0123456789abcdef-md.webp`;
      const freshOrphan = `files/${owner}/${randomUUID()}`;
      const unknown = 'elsewhere/something.bin';
      const files = {
        oldOrphan: await plant(server, oldOrphan, 2 * DAY),
        oldThumbnail: await plant(server, oldThumbnail, 2 * DAY),
        oldAvatar: await plant(server, oldAvatar, 2 * DAY),
        oldLogo: await plant(server, oldLogo, 2 * DAY),
        freshOrphan: await plant(server, freshOrphan, 0),
        pending: await plant(server, pending, 2 * DAY),
        unknown: await plant(server, unknown, 2 * DAY),
      };

      const checked = await fsck(server);
      expect(checked.code).toBe(1);
      expect(checked.report).toMatchObject({ blobs: 15, referenced: 9, orphans: 4, removed: 0, recent: 1, unknown: 1, missing: 1 });
      expect(checked.lines.filter((l) => l.startsWith('orphan\t')).map((l) => l.split('\t')[1]).sort()).toEqual([oldAvatar, oldLogo, oldOrphan, oldThumbnail].sort());
      expect(checked.lines.filter((l) => l.startsWith('missing\t'))).toEqual([`missing\t${lost.blobKey}\tfile\t${lost.id}`]);
      for (const file of Object.values(files)) expect(await exists(file)).toBe(true);

      const repaired = await fsck(server, '--repair');
      expect(repaired.report).toMatchObject({ orphans: 4, removed: 4, recent: 1, missing: 1 });
      expect(repaired.lines.filter((l) => l.startsWith('removed\t'))).toHaveLength(4);
      expect(await exists(files.oldLogo)).toBe(false);
      expect(await exists(logo)).toBe(true);
      expect(await filesUnder(path.join(server.dataDir, 'blobs', 'avatars'))).toHaveLength(3);
      expect(await filesUnder(path.join(server.dataDir, 'blobs', 'thumbnails'))).toHaveLength(3);
      expect(await exists(files.oldOrphan)).toBe(false);
      expect(await exists(files.oldThumbnail)).toBe(false);
      expect(await exists(files.oldAvatar)).toBe(false);
      expect(await exists(files.freshOrphan)).toBe(true);
      expect(await exists(files.pending)).toBe(true);
      expect(await exists(files.unknown)).toBe(true);
      expect(await exists(kept)).toBe(true);

      const again = await fsck(server);
      expect(again.report).toMatchObject({ blobs: 11, referenced: 9, orphans: 0, recent: 1, missing: 1 });
      // The uploaded file still downloads.
      const download = await client.get(`/file/${uploaded.body.data.id}`);
      expect(download.status).toBe(200);
      expect(download.text).toBe('kept bytes');
    } finally {
      await server.stop();
    }
  });

  it('fsck refuses an unknown flag or a bad grace period with a usage line, before touching anything', async () => {
    for (const args of [['--grace-seconds', 'soon'], ['--repiar']]) {
      const failed = (await run(process.execPath, ['scripts/fsck.ts', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: '/nonexistent/cloud-drive' } }).catch((e: unknown) => e)) as { code: number; stderr: string };
      expect(failed.code).toBe(2);
      expect(failed.stderr).toMatch(/--grace-seconds|Usage/);
    }
  });

  it('the server removes old orphans on its schedule, keeps young ones, and logs rows whose blob is missing', async () => {
    const server = await startServer({ env: { BLOB_RECONCILE_SECONDS: '1' } });
    try {
      const { user } = await registerUser(server.url);
      const owner = String(user.id).toLowerCase();
      const lost = await withSeed(server, async (seed) => {
        const file = await seedFile(seed, user.id, { name: 'lost.txt' });
        await rm(path.join(server.dataDir, 'blobs', file.blobKey));
        return file;
      });
      const old = await plant(server, `files/${owner}/${randomUUID()}`, 2 * DAY);
      const young = await plant(server, `files/${owner}/${randomUUID()}`, 0);
      const end = Date.now() + 15_000;
      while (await exists(old)) {
        if (Date.now() > end) throw new Error('the reconciler did not remove the orphan');
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await exists(young)).toBe(true);
      while (!server.logs.some((l) => l.includes('a row refers to a blob that is missing') && l.includes(lost.id))) {
        if (Date.now() > end) throw new Error('the missing blob was not logged');
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await server.stop();
    }
  });
});
