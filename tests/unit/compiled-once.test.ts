import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from '../../db/compiled-once.ts';
import { openDatabase, type DB } from '../../db/index.ts';

// A statement compiled once runs each call's own values, in the SQL Kysely would have built.

let db: DB;
beforeAll(async () => {
  db = await openDatabase({ dialect: 'sqlite', file: ':memory:' });
  await sql`CREATE TABLE pending_blobs (blob_key TEXT PRIMARY KEY, owner_id TEXT NOT NULL, upload_id TEXT, finish TEXT, created_at TEXT NOT NULL)`.execute(db);
});
afterAll(async () => {
  await db.destroy();
});

const insert = compiledOnce((d, key: string, owner: string, uploadId: string | null) =>
  d.insertInto('pending_blobs').values({ blob_key: key, owner_id: owner, upload_id: uploadId, finish: null, created_at: '2026-01-01' }),
);
const byOwner = compiledOnce((d, owner: string) => d.selectFrom('pending_blobs').select('blob_key').where('owner_id', '=', owner).where('blob_key', '!=', owner).orderBy('blob_key'));

describe('compiledOnce', () => {
  it('runs every call with its own values, an argument used twice included, inside a transaction too', async () => {
    await insert(db, 'a', 'u1', null);
    await db.transaction().execute(async (tx) => {
      await insert(tx, 'b', 'u1', 'tus-1');
      await insert(tx, 'c', 'u2', null);
    });
    expect((await byOwner(db, 'u1')).rows).toEqual([{ blob_key: 'a' }, { blob_key: 'b' }]);
    expect((await byOwner(db, 'u2')).rows).toEqual([{ blob_key: 'c' }]);
    expect(await db.selectFrom('pending_blobs').select(['blob_key', 'upload_id', 'finish']).where('blob_key', '=', 'b').executeTakeFirst()).toEqual({ blob_key: 'b', upload_id: 'tus-1', finish: null });
    expect((await compiledOnce((d, key: string) => d.deleteFrom('pending_blobs').where('blob_key', '=', key))(db, 'c')).numAffectedRows).toBe(1n);
  });

  it('compiles per dialect: PostgreSQL gets its own numbered placeholders', () => {
    const pg = new Kysely<never>({ dialect: new PostgresDialect({ pool: {} as never }) }) as unknown as DB;
    const shapes: string[] = [];
    const probe = compiledOnce((d, owner: string) => {
      const query = d.selectFrom('pending_blobs').select('blob_key').where('owner_id', '=', owner).where('upload_id', '=', owner);
      shapes.push(query.compile().sql);
      return query;
    });
    void probe(db, 'x').catch(() => undefined);
    void probe(pg, 'x').catch(() => undefined);
    expect(shapes).toEqual(['select "blob_key" from "pending_blobs" where "owner_id" = ? and "upload_id" = ?', 'select "blob_key" from "pending_blobs" where "owner_id" = $1 and "upload_id" = $2']);
  });

  it('refuses a statement whose shape depends on an argument', async () => {
    const inlined = compiledOnce((d, n: string) => d.selectFrom('pending_blobs').select('blob_key').limit(sql.lit(n) as never));
    await expect(inlined(db, '1')).rejects.toThrow(/written into the SQL/);
    const dropped = compiledOnce((d, key: string) => d.selectFrom('pending_blobs').select('blob_key').where('blob_key', '=', key.startsWith('\u0000') ? 'x' : key));
    await expect(dropped(db, 'a')).rejects.toThrow(/argument 0 is not a parameter/);
  });
});
