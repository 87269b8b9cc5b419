import { sql } from 'kysely';
import type pg from 'pg';
import type { AppContext } from '../context.ts';
import { LOCK_SPACE } from './advisory-locks.ts';

/**
 * Which app nodes are alive. Work a process has in flight (an upload's intent, its quota
 * reservation) carries the process's `ctx.nodeId`; what a dead process left is settled by whoever
 * finds it, and what a live node holds is left alone, so starting a node (a rolling restart, one
 * more node) cancels nothing that another node is still receiving.
 *
 * On PostgreSQL a node is alive while it holds the session-level advisory lock on its id, on a
 * connection of its own opened at start: PostgreSQL releases it the moment the process dies (its
 * socket closes) or its connection is lost, and a lost connection is opened and locked again.
 * On SQLite the database belongs to one process, so every other id is a dead process's.
 */
export interface NodeLease {
  /** Lets the lock go (at shutdown, after the last request). */
  release(): Promise<void>;
}

export async function holdNodeLease(ctx: AppContext): Promise<NodeLease> {
  if (ctx.config.database.dialect !== 'postgres') return { release: async () => {} };
  const url = ctx.config.database.url;
  const logger = ctx.logger.child({ component: 'node-lease', node: ctx.nodeId });
  const { default: pgModule } = await import('pg');
  let client: pg.Client | null = null;
  let released = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pgModule.Client({ connectionString: url, connectionTimeoutMillis: 10_000, application_name: `cloud-drive node ${ctx.nodeId}` });
    const lost = (error?: unknown) => {
      if (client !== next || released) return;
      client = null;
      logger.error({ err: error }, 'the node lease connection was lost: taking it again');
      schedule(1000);
    };
    next.on('error', lost);
    next.on('end', () => lost());
    client = next;
    try {
      await next.connect();
      await next.query('select pg_advisory_lock($1::int, hashtext($2))', [LOCK_SPACE.node, ctx.nodeId]);
    } catch (error) {
      if (client === next) client = null;
      await next.end().catch(() => {});
      throw error;
    }
  };
  const schedule = (delayMs: number) => {
    retry = setTimeout(() => {
      connect().catch((error: unknown) => {
        logger.error({ err: error }, 'could not take the node lease again');
        if (!released) schedule(Math.min(delayMs * 2, 30_000));
      });
    }, delayMs);
    retry.unref();
  };

  await connect();
  return {
    async release() {
      released = true;
      clearTimeout(retry);
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}

/**
 * Of these node ids, the ones whose process is gone. A null id is a record from before nodes were
 * recorded: dead, as every process then was at a start. On PostgreSQL one statement asks for each
 * id's lock for the length of a transaction: granted means no live session holds it.
 */
export async function deadNodes(ctx: AppContext, ids: Iterable<string | null>): Promise<Set<string | null>> {
  const dead = new Set<string | null>();
  const others: string[] = [];
  for (const id of new Set(ids)) {
    if (id === ctx.nodeId) continue;
    if (id === null || ctx.config.database.dialect !== 'postgres') dead.add(id);
    else others.push(id);
  }
  if (!others.length) return dead;
  const { rows } = await ctx.db.transaction().execute((tx) =>
    sql<{ id: string; free: boolean }>`select id, pg_try_advisory_xact_lock(${LOCK_SPACE.node}::int, hashtext(id)) as free from unnest(${others}::text[]) as id`.execute(tx),
  );
  for (const row of rows) if (row.free) dead.add(row.id);
  return dead;
}
