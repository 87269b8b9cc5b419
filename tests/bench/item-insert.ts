// npm run bench:item-insert: what one upload's row costs SQLite, and which part of the schema costs it.
// Every finished upload commits one transaction that inserts its item (uploads/finish.ts); on SQLite
// that runs on the event loop's thread. This builds the product's schema (the real migrations) in a
// temporary file, then times BENCH_INSERTS (3,000) one-row transactions the way an upload makes them
// (BEGIN IMMEDIATE, the item insert with RETURNING, COMMIT; WAL, synchronous = NORMAL, no checkpoint
// during the run) on the full schema and on copies with one part taken away (the search index's
// triggers (FTS5 trigram), the storage counter's, the folder counts', each secondary index of
// `items`, and all of them: the bare table) or the search index rebuilt with lighter FTS5 options,
// and the full schema with 4, 8 and 16 rows per transaction (what group commit across concurrent
// uploads would save; figures per row). Prints microseconds per row (insert, commit) and the
// WAL bytes written per row, and each variant's saving against the full schema, measured in
// alternating rounds (BENCH_ROUNDS, 3; the median is printed). No assertion on timings.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { migrateToLatest, openDatabase } from '../../db/index.ts';

const INSERTS = Number(process.env.BENCH_INSERTS ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-item-insert-'));
try {
  // The product's schema, from its migrations, and one user to own the rows.
  const schemaFile = path.join(dir, 'schema.sqlite');
  const db = await openDatabase({ dialect: 'sqlite', file: schemaFile });
  await migrateToLatest(db);
  await db.destroy();
  const schema = new SQLite(schemaFile);
  const userId = randomUUID();
  const at = new Date().toISOString();
  schema.prepare('insert into users (id, name, email, password_hash, role, color, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)').run(userId, 'Bench', 'bench@example.com', 'x', 'user', '#888888', at, at);
  const itemTriggers = schema.prepare("select name from sqlite_master where type = 'trigger' and tbl_name = 'items'").pluck().all() as string[];
  const itemIndexes = schema.prepare("select name from sqlite_master where type = 'index' and tbl_name = 'items' and sql is not null").pluck().all() as string[];
  schema.pragma('wal_checkpoint(TRUNCATE)');
  schema.close();

  const triggersOf = (part: string) => itemTriggers.filter((t) => t.startsWith(`items_${part}_`));
  const variants: { label: string; alter: string[]; perCommit?: number }[] = [
    { label: 'the product schema', alter: [] },
    // Group commit: rows of concurrent uploads committed together share the pages they dirty.
    ...[4, 8, 16].map((n) => ({ label: `the product schema, ${n} rows per commit`, alter: [], perCommit: n })),
    { label: 'without the search triggers (FTS5)', alter: triggersOf('search').map((t) => `drop trigger ${t}`) },
    // The search index rebuilt with FTS5's lighter options (the triggers stay; a detail other than
    // full would need the search to ask single trigrams, as phrase queries need positions).
    ...[
      ['detail=none', 'detail=none'],
      ['detail=none, columnsize=0', 'detail=none, columnsize=0'],
      ['detail=none, contentless', "content='', contentless_delete=1, detail=none"],
      ['contentless', "content='', contentless_delete=1"],
    ].map(([label, options]) => ({
      label: `search index ${label}`,
      alter: ['drop table items_fts', `create virtual table items_fts using fts5(name_key, tokenize = 'trigram', ${options})`],
    })),
    { label: 'without the storage counter triggers', alter: triggersOf('storage').map((t) => `drop trigger ${t}`) },
    { label: 'without the folder count triggers', alter: triggersOf('count').map((t) => `drop trigger ${t}`) },
    ...itemIndexes.map((index) => ({ label: `without index ${index}`, alter: [`drop index ${index}`] })),
    { label: 'bare table (no triggers, no secondary index)', alter: [...itemTriggers.map((t) => `drop trigger ${t}`), ...itemIndexes.map((i) => `drop index ${i}`)] },
  ];

  interface Figure {
    insert: number;
    commit: number;
    walPerRow: number;
  }
  const run = async (variant: (typeof variants)[number], round: number): Promise<Figure> => {
    const file = path.join(dir, `run-${round}-${variants.indexOf(variant)}.sqlite`);
    const copy = new SQLite(schemaFile, { readonly: true });
    await copy.backup(file);
    copy.close();
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('wal_autocheckpoint = 0');
    for (const statement of variant.alter) sqlite.exec(statement);
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const insert = sqlite.prepare(
      'insert into items (id, owner_id, parent_id, type, name, name_key, color, emoji, mimetype, size, blob_key, created_at, updated_at, deleted_at, deleted_with) values (?, ?, ?, ?, ?, ?, null, null, ?, ?, ?, ?, ?, null, null) returning *',
    );
    const folderId = randomUUID();
    insert.get(folderId, userId, null, 'folder', 'Uploads', 'uploads', null, 0, null, at, at);
    const begin = sqlite.prepare('begin immediate');
    const commit = sqlite.prepare('commit');
    const walBefore = (await stat(`${file}-wal`)).size;
    let inserting = 0n;
    let committing = 0n;
    const perCommit = variant.perCommit ?? 1;
    for (let i = 0; i < INSERTS; i += perCommit) {
      begin.run();
      const a = process.hrtime.bigint();
      for (let j = i; j < Math.min(INSERTS, i + perCommit); j += 1) {
        const name = `report ${String(j).padStart(6, '0')}.pdf`;
        insert.get(randomUUID(), userId, folderId, 'file', name, name, 'application/pdf', 4096, `${userId}/${randomUUID()}`, at, at);
      }
      const b = process.hrtime.bigint();
      commit.run();
      inserting += b - a;
      committing += process.hrtime.bigint() - b;
    }
    const walBytes = (await stat(`${file}-wal`)).size - walBefore;
    sqlite.close();
    await rm(file, { force: true });
    return { insert: Number(inserting) / INSERTS / 1000, commit: Number(committing) / INSERTS / 1000, walPerRow: walBytes / INSERTS };
  };

  const figures = new Map(variants.map((v) => [v, [] as Figure[]]));
  for (let round = 0; round < ROUNDS; round += 1) for (const variant of variants) figures.get(variant)!.push(await run(variant, round));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const summary = (variant: (typeof variants)[number]) => {
    const list = figures.get(variant)!;
    return { insert: median(list.map((f) => f.insert)), commit: median(list.map((f) => f.commit)), total: median(list.map((f) => f.insert + f.commit)), wal: median(list.map((f) => f.walPerRow)) };
  };
  const full = summary(variants[0]!);
  console.log(`node ${process.version}, ${os.cpus().length} CPUs; ${INSERTS} rows per variant, median of ${ROUNDS} alternating rounds\n`);
  console.log(`${'variant'.padEnd(52)} ${'insert'.padStart(8)} ${'commit'.padStart(8)} ${'total'.padStart(8)}  WAL/row   saving`);
  for (const variant of variants) {
    const s = summary(variant);
    const saving = variant === variants[0] ? '' : `${(((full.total - s.total) / full.total) * 100).toFixed(0).padStart(4)}%`;
    console.log(`${variant.label.padEnd(52)} ${s.insert.toFixed(0).padStart(5)} µs ${s.commit.toFixed(0).padStart(5)} µs ${s.total.toFixed(0).padStart(5)} µs  ${(s.wal / 1024).toFixed(1).padStart(6)} KiB  ${saving}`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
