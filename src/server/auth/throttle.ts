import type { AppContext } from '../context.ts';
import { tooManyRequests } from '../http/errors.ts';

/**
 * Exponential back-off for password guessing, kept in the database so every app process shares it.
 * A key's first `free` attempts pass at once; from then on each attempt closes the key for
 * `baseMs`, doubling per attempt up to `maxMs`. Attempts are counted before the password is checked
 * (so a burst of parallel guesses cannot all slip past the check), and an attempt made while a
 * key is closed is refused with 429 and Retry-After without being counted. A key is forgotten
 * `forgetMs` after its last counted attempt.
 */
export interface Backoff {
  free: number;
  baseMs: number;
  maxMs: number;
  forgetMs: number;
}

export interface Throttle {
  key: string;
  limit: Backoff;
}

export interface Taken {
  key: string;
  /** Attempts counted under this key, this one included. */
  count: number;
  /** This attempt used up the key's free attempts: the caller may tell someone. */
  backingOff: boolean;
}

/** How long the next attempt after `count` attempts has to wait (0: none). */
export function delayAfter(limit: Backoff, count: number): number {
  if (count < limit.free) return 0;
  return Math.min(limit.maxMs, limit.baseMs * 2 ** Math.min(30, count - limit.free));
}

/**
 * Checks every key first (a refusal counts nowhere), then counts the attempt under each. Throws 429
 * with the longest wait when any key is closed.
 */
export async function takeAttempt(ctx: AppContext, throttles: Throttle[]): Promise<Taken[]> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  const closed = throttles.length
    ? await ctx.db
        .selectFrom('throttles')
        .select('blocked_until')
        .where('key', 'in', throttles.map((t) => t.key))
        .where('forget_at', '>', nowIso)
        .where('blocked_until', '>', nowIso)
        .execute()
    : [];
  if (closed.length) throw refusal(now, closed.map((r) => r.blocked_until!));
  const taken: Taken[] = [];
  for (const { key, limit } of throttles) taken.push(await countOne(ctx, key, limit, now));
  await pruneForgotten(ctx, nowIso);
  return taken;
}

/** Rows past their forget time are dead weight: each attempt clears a small batch of them. */
async function pruneForgotten(ctx: AppContext, nowIso: string): Promise<void> {
  const batch = ctx.db.selectFrom('throttles').select('key').where('forget_at', '<=', nowIso).limit(100);
  await ctx.db.deleteFrom('throttles').where('key', 'in', ctx.db.selectFrom(batch.as('b')).select('b.key')).where('forget_at', '<=', nowIso).execute();
}

async function countOne(ctx: AppContext, key: string, limit: Backoff, now: Date): Promise<Taken> {
  const nowIso = now.toISOString();
  const forgetAt = new Date(now.getTime() + limit.forgetMs).toISOString();
  // One transaction per key: the upsert's row lock (PostgreSQL) or the single connection (SQLite)
  // keeps a parallel attempt from counting between the count and the wait it sets.
  return ctx.db.transaction().execute(async (tx) => {
    // Restart a forgotten key, leave a closed one alone (a parallel attempt closed it since the
    // check above), count otherwise.
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
    if (row.blocked_until && row.blocked_until > nowIso) throw refusal(now, [row.blocked_until]);
    const wait = delayAfter(limit, row.count);
    if (wait > 0) await tx.updateTable('throttles').set({ blocked_until: new Date(now.getTime() + wait).toISOString() }).where('key', '=', key).execute();
    return { key, count: row.count, backingOff: wait > 0 };
  });
}

/** Forgets a key, after a successful sign-in for the keys that name the one who succeeded. */
export async function forgetAttempts(ctx: AppContext, keys: string[]): Promise<void> {
  if (keys.length) await ctx.db.deleteFrom('throttles').where('key', 'in', keys).execute();
}

/** Gives one counted attempt back (a success under a shared key such as an IP); a wait already set stays. */
export async function refundAttempt(ctx: AppContext, keys: string[]): Promise<void> {
  if (!keys.length) return;
  await ctx.db
    .updateTable('throttles')
    .set((eb) => ({ count: eb.case().when('count', '>', 0).then(eb(eb.ref('count'), '-', 1)).else(0).end() }))
    .where('key', 'in', keys)
    .execute();
}

function refusal(now: Date, until: string[]) {
  const latest = Math.max(...until.map((u) => Date.parse(u)));
  return tooManyRequests(Math.max(1, Math.ceil((latest - now.getTime()) / 1000)));
}

/** Remembers a fact under `key` for `forMs` (e.g. "this IP unlocked this link before"). */
export async function remember(ctx: AppContext, key: string, forMs: number): Promise<void> {
  const forgetAt = new Date(ctx.clock.now().getTime() + forMs).toISOString();
  await ctx.db
    .insertInto('throttles')
    .values({ key, count: 0, blocked_until: null, forget_at: forgetAt })
    .onConflict((oc) => oc.column('key').doUpdateSet({ forget_at: forgetAt }))
    .execute();
}

export async function remembered(ctx: AppContext, key: string): Promise<boolean> {
  const row = await ctx.db.selectFrom('throttles').select('key').where('key', '=', key).where('forget_at', '>', ctx.clock.now().toISOString()).executeTakeFirst();
  return row !== undefined;
}
