import { sql } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { delayAfter, type RateLimitStore } from './store.ts';

/** Counts in the database (tables `rate_limits` and `throttles`), atomically, so every app process shares them. */
export function createDbRateLimits(db: DB): RateLimitStore {
  const iso = (ms: number) => new Date(ms).toISOString();
  /** Rows past their forget time are dead weight: each attempt clears a small batch of them. */
  const pruneForgotten = async (nowIso: string) => {
    const batch = db.selectFrom('throttles').select('key').where('forget_at', '<=', nowIso).limit(100);
    await db.deleteFrom('throttles').where('key', 'in', db.selectFrom(batch.as('b')).select('b.key')).where('forget_at', '<=', nowIso).execute();
  };
  /** Windows that ended are dead weight too: a small batch of them goes, at most every ten seconds per process. */
  let prunedWindowsAt = 0;
  const pruneEndedWindows = async (now: number) => {
    if (now - prunedWindowsAt < 10_000) return;
    prunedWindowsAt = now;
    const nowIso = iso(now);
    const batch = db.selectFrom('rate_limits').select('key').where('reset_at', '<=', nowIso).limit(500);
    await db.deleteFrom('rate_limits').where('key', 'in', db.selectFrom(batch.as('b')).select('b.key')).where('reset_at', '<=', nowIso).execute();
  };
  return {
    kind: 'database',
    async addToWindow(key, n, windowMs, now) {
      await pruneEndedWindows(now);
      const nowIso = iso(now);
      const resetAt = iso(now + windowMs);
      const row = await db
        .insertInto('rate_limits')
        .values({ key, count: n, reset_at: resetAt })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            count: sql<number>`case when rate_limits.reset_at <= ${nowIso} then ${n} else rate_limits.count + ${n} end`,
            reset_at: sql<string>`case when rate_limits.reset_at <= ${nowIso} then ${resetAt} else rate_limits.reset_at end`,
          }),
        )
        .returning(['count', 'reset_at'])
        .executeTakeFirstOrThrow();
      return { count: Number(row.count), resetAt: Date.parse(row.reset_at) };
    },
    async takeFromWindow(key, n) {
      await db.updateTable('rate_limits').set({ count: sql<number>`count - ${n}` }).where('key', '=', key).execute();
    },
    async clearWindow(key) {
      await db.deleteFrom('rate_limits').where('key', '=', key).execute();
    },
    async closedUntil(keys, now) {
      if (!keys.length) return 0;
      const nowIso = iso(now);
      await pruneForgotten(nowIso);
      const rows = await db.selectFrom('throttles').select('blocked_until').where('key', 'in', keys).where('forget_at', '>', nowIso).where('blocked_until', '>', nowIso).execute();
      return Math.max(0, ...rows.map((r) => Date.parse(r.blocked_until!)));
    },
    async countAttempt(key, limit, now) {
      const nowIso = iso(now);
      const forgetAt = iso(now + limit.forgetMs);
      // One transaction per key: the upsert's row lock (PostgreSQL) or the single connection (SQLite)
      // keeps a parallel attempt from counting between the count and the wait it sets.
      return db.transaction().execute(async (tx) => {
        // Restart a forgotten key, leave a closed one alone (a parallel attempt closed it), count otherwise.
        const row = await tx
          .insertInto('throttles')
          .values({ key, count: 1, blocked_until: null, forget_at: forgetAt })
          .onConflict((oc) =>
            oc.column('key').doUpdateSet((eb) => ({
              count: eb
                .case()
                .when('throttles.forget_at', '<=', nowIso)
                .then(1)
                .when('throttles.blocked_until', '>', nowIso)
                .then(eb.ref('throttles.count'))
                .else(eb(eb.ref('throttles.count'), '+', 1))
                .end(),
              blocked_until: eb.case().when('throttles.forget_at', '<=', nowIso).then(null).else(eb.ref('throttles.blocked_until')).end(),
              forget_at: eb.case().when('throttles.blocked_until', '>', nowIso).then(eb.ref('throttles.forget_at')).else(forgetAt).end(),
            })),
          )
          .returning(['count', 'blocked_until'])
          .executeTakeFirstOrThrow();
        const count = Number(row.count);
        if (row.blocked_until && row.blocked_until > nowIso) return { count, blockedUntil: Date.parse(row.blocked_until), closed: true };
        const wait = delayAfter(limit, count);
        if (wait > 0) await tx.updateTable('throttles').set({ blocked_until: iso(now + wait) }).where('key', '=', key).execute();
        return { count, blockedUntil: wait > 0 ? now + wait : 0, closed: false };
      });
    },
    async forget(keys) {
      if (keys.length) await db.deleteFrom('throttles').where('key', 'in', keys).execute();
    },
    async refund(keys) {
      if (!keys.length) return;
      await db
        .updateTable('throttles')
        .set((eb) => ({ count: eb.case().when('count', '>', 0).then(eb(eb.ref('count'), '-', 1)).else(0).end() }))
        .where('key', 'in', keys)
        .execute();
    },
    async remember(key, forMs, now) {
      const forgetAt = iso(now + forMs);
      await db.insertInto('throttles').values({ key, count: 0, blocked_until: null, forget_at: forgetAt }).onConflict((oc) => oc.column('key').doUpdateSet({ forget_at: forgetAt })).execute();
    },
    async remembered(key, now) {
      const row = await db.selectFrom('throttles').select('key').where('key', '=', key).where('forget_at', '>', iso(now)).executeTakeFirst();
      return row !== undefined;
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {},
  };
}
