// npm run bench:admin-users: the admin's user list (GET /api/admin/users) over 100,000 accounts, on
// SQLite and PostgreSQL. Seeds the users (and one file row each for 60% of them, so storage used
// varies and the items triggers keep the per-user counter) in bulk on a second connection, then
// times, one request at a time, the first page and a page halfway down (by cursor) for every sort
// and direction, and two searches, through HTTP and as the bare query in-process.
// Bounded: BENCH_USERS accounts (default 100,000), BENCH_SAMPLES requests per figure, 127.0.0.1 only.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { hashPassword } from '../../src/server/auth/passwords.ts';
import { listUserRows, SORTS, type Direction, type ListQuery } from '../../src/server/admin/users/queries.ts';
import { encodeCursor } from '../../src/server/http/keyset.ts';
import { Client } from '../support/client.ts';
import { seedContext } from '../support/seed.ts';
import { startServer, type TestDb } from '../support/server.ts';
import { summarise } from './load.ts';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const ADMIN = { email: 'bench-admin@example.test', password: 'bench admin password' };
const WORDS = ['river', 'stone', 'maple', 'cedar', 'harbor', 'meadow', 'falcon', 'ember', 'willow', 'summit'];

/** A word index from 0 to 9 scattered over the accounts (no order of the list groups a word together). */
const spread = (j: number, salt: number) => (Math.imul(j * 31 + salt, 2654435761) >>> 0) % 10;

async function time(run: () => Promise<unknown>) {
  const latencies: number[] = [];
  const started = performance.now();
  for (let i = 0; i < SAMPLES; i += 1) {
    const t = performance.now();
    await run();
    latencies.push(performance.now() - t);
  }
  const r = summarise(latencies, (performance.now() - started) / 1000);
  return `p50 ${r.p50.toFixed(2).padStart(7)} ms  p95 ${r.p95.toFixed(2).padStart(7)} ms`;
}

async function bench(db: TestDb) {
  const server = await startServer({ db, env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  const seed = await seedContext(server);
  try {
    const started = performance.now();
    const hash = await hashPassword('not used');
    const base = Date.UTC(2020, 0, 1);
    const BATCH = 500;
    for (let i = 0; i < USERS; i += BATCH) {
      const users = [];
      const items = [];
      for (let j = i; j < Math.min(USERS, i + BATCH); j += 1) {
        const id = randomUUID();
        const created = new Date(base + j * 60_000).toISOString();
        users.push({
          id,
          email: `user${String(j).padStart(6, '0')}.${WORDS[spread(j, 1)]}@example.test`,
          name: `${WORDS[spread(j, 2)]} ${WORDS[spread(j, 3)]} ${j}`,
          password_hash: hash,
          role: 'user' as const,
          color: '#6366f1',
          created_at: created,
          updated_at: created,
          last_signed_in_at: j % 3 === 0 ? null : new Date(base + ((j * 7919) % USERS) * 60_000).toISOString(),
        });
        if (j % 5 < 3) {
          items.push({ id: randomUUID(), owner_id: id, parent_id: null, type: 'file' as const, name: 'data.bin', name_key: 'data.bin', mimetype: 'application/octet-stream', size: (j * 104_729) % 5_000_000_000, created_at: created, updated_at: created });
        }
      }
      await seed.db.insertInto('users').values(users).execute();
      await seed.db.insertInto('items').values(items).execute();
    }
    // As autovacuum would have by then: statistics, and (PostgreSQL) the GIN indexes' pending lists merged.
    await (db === 'postgres' ? sql`vacuum analyze` : sql`analyze`).execute(seed.db);
    console.log(`\n${db}: seeded ${USERS} users and ${Math.ceil((USERS * 3) / 5)} file rows (items triggers keeping storage used) in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const admin = new Client(server.url);
    if ((await admin.post('/login', ADMIN)).status !== 200) throw new Error('admin sign-in failed');
    const get = async (query: string) => {
      const res = await admin.get(`/api/admin/users?${query}`);
      if (res.status !== 200) throw new Error(`${query} answered ${res.status}: ${res.text}`);
      return res.body;
    };

    console.log(`${SAMPLES} sequential requests each, 25 per page; "deep" starts halfway down the list by cursor`);
    for (const sort of SORTS) {
      for (const direction of ['asc', 'desc'] as Direction[]) {
        // The cursor of the row halfway down, as the server would have made it.
        const middle = (await listUserRows(seed.db, { search: null, sort, direction, after: null, limit: USERS / 2 })).at(-2)!;
        const cursor = encodeCursor([`${sort}:${direction}`, sort === 'storage_used' ? Number(middle.sort_key) : String(middle.sort_key), middle.id]);
        const after: ListQuery['after'] = [sort === 'storage_used' ? Number(middle.sort_key) : String(middle.sort_key), middle.id];
        const first = await time(() => get(`sort=${sort}&direction=${direction}`));
        const deep = await time(() => get(`sort=${sort}&direction=${direction}&cursor=${cursor}`));
        const floor = await time(() => listUserRows(seed.db, { search: null, sort, direction, after, limit: 25 }));
        console.log(`  ${`${sort} ${direction}`.padEnd(24)} first ${first}   deep ${deep}   bare query (deep) ${floor}`);
      }
    }
    for (const [label, search] of [
      ['search, common word', 'maple'],
      ['search, one account', 'user054321'],
      ['search, no match', 'zzz-nothing'],
    ] as const) {
      const http = await time(() => get(`search=${search}&sort=name&direction=asc`));
      const floor = await time(() => listUserRows(seed.db, { search, sort: 'name', direction: 'asc', after: null, limit: 25 }));
      console.log(`  ${label.padEnd(24)} http ${http}   bare query ${floor}`);
      if (process.env.BENCH_EXPLAIN && db === 'postgres') {
        const pattern = `%${search}%`;
        const plan = await sql<{ 'QUERY PLAN': string }>`explain analyze select id from users where (lower(name) like ${pattern} escape '\\' or email like ${pattern} escape '\\') order by lower(name), id limit 26`.execute(seed.db);
        console.log(plan.rows.map((r) => `      ${r['QUERY PLAN']}`).join('\n'));
      }
    }
  } finally {
    await seed.db.destroy();
    await server.stop();
  }
}

for (const db of (process.env.BENCH_DB ? [process.env.BENCH_DB] : ['sqlite', 'postgres']) as TestDb[]) await bench(db);
