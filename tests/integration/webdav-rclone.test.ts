import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../support/client.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const RCLONE = '/usr/bin/rclone';
const exec = promisify(execFile);

let server: RunningServer;
let dir: string;
beforeAll(async () => {
  if (!existsSync(RCLONE)) return;
  server = await startServer();
  dir = await mkdtemp(path.join(os.tmpdir(), 'cd-rclone-'));
});
afterAll(async () => {
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Every file below `root` with its bytes, by relative path. */
async function tree(root: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const full = path.join(entry.parentPath, entry.name);
      out.set(path.relative(root, full).normalize('NFC'), await readFile(full));
    }
  }
  return out;
}

/**
 * rclone (Debian's package) with a webdav remote on /dav/ and an app password: a tree with nested
 * folders and non-ASCII names up, `rclone check --download`, a rename, a delete and a changed file
 * synced again, then down into an empty folder and compared byte for byte. Skipped without rclone.
 */
describe.skipIf(!existsSync(RCLONE))('rclone', () => {
  it('syncs a tree up, checks it, syncs changes, and syncs it down identical', async () => {
    const { client, email } = await registerUser(server.url);
    const token: string = (await client.post('/api/user/tokens', { name: 'rclone' })).body.meta.token;
    const config = path.join(dir, 'rclone.conf');
    const env = { ...process.env, RCLONE_CONFIG: config };
    const rclone = (...args: string[]) => exec(RCLONE, args, { env, timeout: 120_000 });
    const { stdout: obscured } = await rclone('obscure', token);
    await writeFile(config, `[drive]\ntype = webdav\nurl = ${server.url}/dav/\nvendor = other\nuser = ${email}\npass = ${obscured.trim()}\n`);

    const src = path.join(dir, 'src');
    for (const folder of ['a/b/c', 'Fotos/Müller', '日本語/子', 'x']) {
      await mkdir(path.join(src, folder), { recursive: true });
      for (let i = 0; i < 5; i += 1) await writeFile(path.join(src, folder, `file ${i} é.bin`), randomBytes(i * 7919 + 1));
    }
    await writeFile(path.join(src, 'x', 'big.bin'), randomBytes(3 * 1024 * 1024));

    await rclone('sync', src, 'drive:tree');
    await rclone('check', src, 'drive:tree', '--download');

    await rename(path.join(src, 'Fotos/Müller/file 3 é.bin'), path.join(src, 'Fotos/Müller/renamed ü.bin'));
    await rm(path.join(src, 'a/b/c/file 1 é.bin'));
    await writeFile(path.join(src, 'x', 'file 2 é.bin'), randomBytes(5000));
    await rclone('sync', src, 'drive:tree');
    await rclone('check', src, 'drive:tree', '--download');

    const down = path.join(dir, 'down');
    await mkdir(down);
    await rclone('sync', 'drive:tree', down);
    const [want, got] = [await tree(src), await tree(down)];
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [name, bytes] of want) expect(got.get(name)?.equals(bytes), name).toBe(true);
  });
});
