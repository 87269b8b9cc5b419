import { describe, expect, it } from 'vitest';
import { registerUser } from '../support/client.ts';
import { browse } from '../support/files.ts';
import { withSeed } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { deterministicBytes, uploadForm } from '../support/uploads.ts';

/**
 * Deleting for good is as crash-safe as uploading: a process killed after the rows of a batch are
 * deleted and before their blobs are (CLOUD_DRIVE_FAULT) leaves the keys in `blob_deletions`, and
 * the next start deletes the blobs, instead of leaving them on disk until the reconciler's grace.
 */
const fileBlobs = (server: RunningServer) =>
  withSeed(server, async (seed) => {
    const keys: string[] = [];
    for await (const blob of seed.blobs.list('files/')) keys.push(blob.key);
    return keys.sort();
  });
const pendingDeletions = (server: RunningServer) => withSeed(server, (seed) => seed.db.selectFrom('blob_deletions').select('blob_key').orderBy('blob_key').execute());

describe('a process killed while it empties the trash', () => {
  it('leaves the doomed blobs named, and the next start deletes them', async () => {
    const server = await startServer({ env: { CLOUD_DRIVE_FAULT: 'trash-delete-before-blobs' } });
    let restarted: RunningServer | null = null;
    try {
      const { client } = await registerUser(server.url);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const up = await uploadForm(client, deterministicBytes(60 + i, 0, 4096), { filename: `doomed-${i}.bin` });
        expect(up.status, up.text).toBe(201);
        ids.push(up.body.data.id);
      }
      const kept = await uploadForm(client, 'kept', { filename: 'kept.txt' });
      expect(kept.status, kept.text).toBe(201);
      expect((await client.post('/api/remove', { items: ids.map((id) => ({ id, type: 'file', force_delete: false })) })).status).toBe(204);
      const before = await fileBlobs(server);
      expect(before).toHaveLength(4);

      // The rows go, then the process dies before a blob does.
      await expect(client.post('/api/trash/dump', { _method: 'delete' })).rejects.toThrow();
      await server.kill();
      expect(server.logs.some((line) => line.includes('"fault":"trash-delete-before-blobs"'))).toBe(true);
      expect(await fileBlobs(server)).toEqual(before);
      expect(await pendingDeletions(server)).toHaveLength(3);

      restarted = await startServer({ reuse: server });
      expect(restarted.logs.some((line) => line.includes('"msg":"finished blob deletions a crash interrupted"') && line.includes('"blobs":3'))).toBe(true);
      expect(await pendingDeletions(restarted)).toEqual([]);
      const after = await fileBlobs(restarted);
      expect(after).toHaveLength(1);
      expect(before).toContain(after[0]);
      expect((await browse(client)).names).toEqual(['kept.txt']);
    } finally {
      if (restarted) await restarted.stop();
      else {
        await server.kill();
        await server.cleanup();
      }
    }
  });
});
