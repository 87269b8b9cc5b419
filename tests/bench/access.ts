// npm run bench:access: statements and time of the access check and of 1,000-item moves and trashes,
// as the owner and as a share editor (a scoped actor), on SQLite and PostgreSQL. Product code runs
// in this process on the test server's database; a Kysely plugin counts every statement sent.
import type { KyselyPlugin } from 'kysely';
import { requireOwnedItems, type Actor } from '../../src/server/files/access.ts';
import { moveItems, removeItems } from '../../src/server/files/service.ts';
import { registerUser } from '../support/client.ts';
import { seedContext, seedFile, seedFolder, userById } from '../support/seed.ts';
import { startServer, type TestDb } from '../support/server.ts';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);

async function bench(db: TestDb): Promise<void> {
  const server = await startServer({ db });
  const seed = await seedContext(server);
  try {
    const { user: u } = await registerUser(server.url);
    const owner = await userById(seed, u.id);
    let statements = 0;
    const counter: KyselyPlugin = { transformQuery: (args) => {
        statements++;
        return args.node;
      }, transformResult: async (args) => args.result };
    const ctx = { ...seed, db: seed.db.withPlugin(counter) };
    // Best of `runs` (the machine is shared; the best run is the least disturbed one).
    const measure = async (label: string, work: () => Promise<unknown>, runs = 1) => {
      let best = Infinity;
      let count = 0;
      for (let run = 0; run < runs; run += 1) {
        statements = 0;
        const start = performance.now();
        await work();
        best = Math.min(best, performance.now() - start);
        count = statements;
      }
      console.log(`${db.padEnd(8)} ${label.padEnd(44)} ${String(count).padStart(5)} statements ${best.toFixed(1).padStart(8)} ms`);
    };
    // Shared/{From/{1,000 files}, To/}: the share's root is Shared, three levels above each file.
    const shared = await seedFolder(seed, u.id, 'Shared');
    const from = await seedFolder(seed, u.id, 'From', shared);
    const to = await seedFolder(seed, u.id, 'To', shared);
    const refs: { id: string; type: 'file' }[] = [];
    for (let i = 0; i < ITEMS; i += 1) refs.push({ id: (await seedFile(seed, u.id, { name: `f${i}.txt`, parentId: from, content: 'x' })).id, type: 'file' });
    const scoped: Actor = { ...owner, scope: { rootId: shared } };
    const checks = refs.map((r, i) => ({ id: r.id, type: r.type, field: `items.${i}.type` }));

    await measure(`check ${ITEMS} ids, owner`, () => requireOwnedItems(ctx, owner, checks, { change: true }), 7);
    await measure(`check ${ITEMS} ids, share editor`, () => requireOwnedItems(ctx, scoped, checks, { change: true }), 7);
    await measure(`move ${ITEMS} files, owner`, () => moveItems(ctx, owner, to, refs));
    await measure(`move ${ITEMS} files back, share editor`, () => moveItems(ctx, scoped, from, refs));
    await measure(`trash ${ITEMS} files, share editor`, () => removeItems(ctx, scoped, refs.map((r) => ({ ...r, force_delete: false }))));
  } finally {
    await seed.db.destroy();
    await server.stop();
  }
}

for (const db of (process.env.BENCH_DBS ?? 'sqlite,postgres').split(',') as TestDb[]) await bench(db);
