import type pg from 'pg';
import type { AppContext } from '../context.ts';

/**
 * Locks across app nodes. On PostgreSQL: session-level advisory locks (`pg_try_advisory_lock`) on
 * one dedicated connection per process, outside the query pool, so a lock held for a long run
 * takes no pool connection. A node that dies (or loses that connection) loses its locks at once:
 * PostgreSQL releases a session's advisory locks when the session ends. The key is two integers:
 * the space (what kind of thing is locked) and `hashtext` of its name. In-process, a key is held
 * once (advisory locks re-enter within one session, so this keeps two holders of one process apart);
 * on SQLite (one process) that in-process set is the whole lock.
 */
export const LOCK_SPACE = { job: 1, tus: 2, deletion: 3, chunk: 4, node: 5 } as const;
export type LockSpace = (typeof LOCK_SPACE)[keyof typeof LOCK_SPACE];

export interface AdvisoryLocks {
  /** Takes the lock if no one (this process or another node) holds it; false otherwise. */
  tryLock(space: LockSpace, key: string): Promise<boolean>;
  unlock(space: LockSpace, key: string): Promise<void>;
  /** Ends this holder's use: the connection closes once no holder and no lock remain. */
  release(): Promise<void>;
}

interface State {
  users: number;
  held: Set<string>;
  client: Promise<pg.Client> | null;
  /** The last statement sent on the connection: the next waits for it (pg deprecates overlapping queries on one client). */
  queue: Promise<unknown>;
}

const states = new WeakMap<AppContext, State>();

/** A holder's handle on the process's locks; `release` it when done (a scheduled job when it stops). */
export function retainAdvisoryLocks(ctx: AppContext): AdvisoryLocks {
  let state = states.get(ctx);
  if (!state) states.set(ctx, (state = { users: 0, held: new Set(), client: null, queue: Promise.resolve() }));
  const s = state;
  s.users += 1;
  let released = false;
  return {
    async tryLock(space, key) {
      const id = `${space}:${key}`;
      if (s.held.has(id)) return false;
      s.held.add(id);
      try {
        if (ctx.config.database.dialect !== 'postgres') return true;
        const client = await connection(ctx, s);
        const { rows } = await inTurn(s, () => client.query<{ ok: boolean }>('select pg_try_advisory_lock($1::int, hashtext($2)) as ok', [space, key]));
        if (rows[0]?.ok) return true;
      } catch (error) {
        s.held.delete(id);
        throw error;
      }
      s.held.delete(id);
      return false;
    },
    async unlock(space, key) {
      const id = `${space}:${key}`;
      if (!s.held.has(id)) return;
      try {
        // A lost connection has released the lock already.
        if (ctx.config.database.dialect === 'postgres' && s.client) {
          const client = await s.client;
          await inTurn(s, () => client.query('select pg_advisory_unlock($1::int, hashtext($2))', [space, key]));
        }
      } catch (error) {
        ctx.logger.warn({ err: error, lock: id }, 'could not release an advisory lock');
      } finally {
        s.held.delete(id);
        await closeIfIdle(s);
      }
    },
    async release() {
      if (released) return;
      released = true;
      s.users -= 1;
      await closeIfIdle(s);
    },
  };
}

async function connection(ctx: AppContext, s: State): Promise<pg.Client> {
  if (ctx.config.database.dialect !== 'postgres') throw new Error('advisory locks need PostgreSQL');
  const url = ctx.config.database.url;
  s.client ??= (async () => {
    const { default: pgModule } = await import('pg');
    const client = new pgModule.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    const lost = (error?: unknown) => {
      // A connection closed when idle (closeIfIdle) is no longer the current one: nothing was held on it.
      if (s.client !== current) return;
      if (error) ctx.logger.error({ err: error }, 'the advisory lock connection failed: its locks are released');
      s.client = null;
      s.held.clear();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    return client;
  })();
  const current = s.client;
  try {
    return await current;
  } catch (error) {
    if (s.client === current) s.client = null;
    throw error;
  }
}

/** Runs `statement` once every statement sent before it on the lock connection has answered. */
function inTurn<T>(s: State, statement: () => Promise<T>): Promise<T> {
  const result = s.queue.then(statement, statement);
  s.queue = result.catch(() => undefined);
  return result;
}

async function closeIfIdle(s: State): Promise<void> {
  if (s.users > 0 || s.held.size > 0 || !s.client) return;
  const client = s.client;
  s.client = null;
  await client.then((c) => c.end()).catch(() => {});
}
