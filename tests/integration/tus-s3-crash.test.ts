import { describe, expect, it } from 'vitest';
import { createS3Client } from '../../src/server/blobs/s3-store.ts';
import { registerUser } from '../support/client.ts';
import { browse } from '../support/files.ts';
import { withSeed } from '../support/seed.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { createUpload, MiB, staged, tusFetch, until } from '../support/tus-s3.ts';
import { authHeaders, createToken, deterministicBytes, sha256OfDeterministic, storedSha256 } from '../support/uploads.ts';

// The crash windows of finishing a tus upload (uploads-crash.test.ts) with its bytes staged in the
// bucket (STORAGE_DRIVER=s3): the node kills itself there, a restart on the same database and bucket
// finishes the upload exactly once.
describe('a crash while a tus upload staged in the bucket finishes (CLOUD_DRIVE_FAULT kills the node there)', () => {
  for (const fault of ['tus-finish-before-intent', 'tus-finish-after-blob-move', 'tus-finish-after-commit']) {
    it(`at ${fault}: finished exactly once after the restart, nothing staged but the record`, async () => {
      const first = await startServer({ storage: 's3', env: { CLOUD_DRIVE_FAULT: fault } });
      let second: RunningServer | null = null;
      try {
        const { client } = await registerUser(first.url);
        const auth = authHeaders(client, await createToken(client));
        const size = 9 * MiB + 17;
        const location = await createUpload(first, auth, size, 'crash.bin');
        const id = location.split('/').pop()!;
        const sent = fetch(first.url + location, { method: 'PATCH', headers: { ...auth, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: new Uint8Array(deterministicBytes(8, 0, size)) });
        await expect(sent).rejects.toThrow();
        await first.kill();
        await until(async () => first.logs.some((l) => l.includes('fault injection')), (hit) => hit, 'the fault to be reached');

        second = await startServer({ reuse: first });
        const head = await tusFetch(second.url + location, 'HEAD', auth);
        expect(head.status).toBe(200);
        expect(head.headers.get('upload-offset')).toBe(String(size));
        const itemId = head.headers.get('x-item-id')!;
        expect((await browse(client)).names).toEqual(['crash.bin']);
        const counts = await withSeed(second, async (seed) => {
          const blobs: string[] = [];
          for await (const blob of seed.blobs.list('files/')) blobs.push(blob.key);
          return { sha: await storedSha256(seed, itemId), blobs: blobs.length, intents: (await seed.db.selectFrom('pending_blobs').selectAll().execute()).length, items: (await seed.db.selectFrom('items').select('id').where('type', '=', 'file').execute()).length };
        });
        expect(counts).toEqual({ sha: sha256OfDeterministic(8, size), blobs: 1, intents: 0, items: 1 });
        const s3 = await createS3Client(first.s3!.settings);
        try {
          expect(await staged(s3, first.s3!.bucket)).toEqual([`${id}.json`]);
        } finally {
          s3.destroy();
        }
      } finally {
        await (second ?? first).stop();
      }
    });
  }
});
