import { describe, expect, it } from 'vitest';
import { createFileItem, newBlobKey } from '../../src/server/files/service.ts';
import { usedBytes } from '../../src/server/uploads/limits.ts';
import { registerUser } from '../support/client.ts';
import { seedFolder, useSeededServer } from '../support/seed.ts';
import { uploadForm } from '../support/uploads.ts';

// The per-owner byte count that the upload quota reads (users.storage_used_bytes, kept by triggers
// on items) must equal the sum it replaced, after every kind of write to items, on both databases.
const env = useSeededServer();

async function summed(ownerId: string): Promise<number> {
  const row = await env.seed.db
    .selectFrom('items')
    .select((eb) => eb.fn.sum<number | string | null>('size').as('bytes'))
    .where('owner_id', '=', ownerId)
    .where('type', '=', 'file')
    .executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

async function expectInStep(ownerId: string, bytes: number): Promise<void> {
  expect(await summed(ownerId)).toBe(bytes);
  expect(await usedBytes(env.seed.db, ownerId)).toBe(bytes);
}

describe('storage usage kept by triggers', () => {
  it('follows uploads, inserts, size changes, moves, trash, deletes and a change of owner', async () => {
    const { client, user } = await registerUser(env.server.url);
    const { user: other } = await registerUser(env.server.url);
    await expectInStep(user.id, 0);

    // An upload through the API (the finishing transaction inserts the item).
    const res = await uploadForm(client, new Uint8Array(1000), { filename: 'a.bin' });
    expect(res.status, res.text).toBe(201);
    await expectInStep(user.id, 1000);

    // Inserts of several files in one statement, a folder (not counted) and an empty file.
    const folder = await seedFolder(env.seed, user.id, 'F');
    const b = await createFileItem(env.seed, { ownerId: user.id, parentId: folder, name: 'b.bin', mimetype: 'application/octet-stream', size: 500, blobKey: newBlobKey(user.id) });
    await createFileItem(env.seed, { ownerId: user.id, parentId: null, name: 'empty.bin', mimetype: 'application/octet-stream', size: 0, blobKey: newBlobKey(user.id) });
    await expectInStep(user.id, 1500);

    // A size change, a rename and a move (no change), trash (still counted).
    await env.seed.db.updateTable('items').set({ size: 700 }).where('id', '=', b.id).execute();
    await expectInStep(user.id, 1700);
    await env.seed.db.updateTable('items').set({ name: 'b2.bin', parent_id: null }).where('owner_id', '=', user.id).where('type', '=', 'file').execute();
    await env.seed.db.updateTable('items').set({ deleted_at: new Date().toISOString() }).where('id', '=', b.id).execute();
    await expectInStep(user.id, 1700);

    // A change of owner moves the bytes; a delete takes them away.
    await env.seed.db.updateTable('items').set({ owner_id: other.id }).where('id', '=', b.id).execute();
    await expectInStep(user.id, 1000);
    await expectInStep(other.id, 700);
    await env.seed.db.deleteFrom('items').where('owner_id', '=', user.id).execute();
    await expectInStep(user.id, 0);
  });
});
