import type { AppContext } from '../context.ts';
import { findNotification, type NotificationRow } from '../notifications/queries.ts';
import { audienceFor } from './audience.ts';

/**
 * The open event streams of this process, by user, and the bus listeners that feed them. Only the
 * sockets are process-local: what happened comes through the event bus (in-process on SQLite, the
 * database's LISTEN/NOTIFY from every node on PostgreSQL: the listeners ask for `remote`), and a
 * resumed stream re-reads the notifications table, so any process can serve any stream.
 */
export interface LiveStream {
  userId: string;
  notification(row: NotificationRow): void;
  /** `everything`: every listing of the owner's changed (a change too large to name between nodes). */
  itemsChanged(change: { folderIds: (string | null)[]; itemIds: string[]; everything?: true }): void;
  close(): void;
}

export interface Hub {
  /** Adds the stream unless its user has `max` open already (then false). */
  add(stream: LiveStream, max: number): boolean;
  remove(stream: LiveStream): void;
  count(userId: string): number;
  /** Ends every open stream (shutdown). */
  closeAll(): void;
}

const hubs = new WeakMap<AppContext['events'], Hub>();

/** Who hears of an item change (audience.ts; a test may answer it itself). */
export type Audience = typeof audienceFor;

/** The hub of this context's bus, made (and subscribed) on first use. */
export function hubFor(ctx: AppContext, audience: Audience = audienceFor): Hub {
  const known = hubs.get(ctx.events);
  if (known) return known;
  const hub = createHub(ctx, audience);
  hubs.set(ctx.events, hub);
  return hub;
}

/** Item ids a change event carries at most: a client only needs to know that its folder changed. */
const MAX_ITEM_IDS = 100;

function createHub(ctx: AppContext, audience: Audience): Hub {
  const byUser = new Map<string, Set<LiveStream>>();
  const fail = (error: unknown) => ctx.logger.error({ err: error }, 'live event delivery failed');

  ctx.events.on(
    'notification.created',
    ({ userId, notificationId }) => {
      const streams = byUser.get(userId);
      if (!streams?.size) return;
      findNotification(ctx, userId, notificationId)
        .then((row) => {
          if (row) for (const stream of byUser.get(userId) ?? []) stream.notification(row);
        })
        .catch(fail);
    },
    { remote: true },
  );

  ctx.events.on(
    'items.changed',
    ({ ownerId, folderIds, itemIds, everything }) => {
      if (byUser.size === 0) return;
      const change = { folderIds: [...new Set(folderIds)], itemIds: [...new Set(itemIds)].slice(0, MAX_ITEM_IDS), ...(everything ? { everything } : {}) };
      audience(ctx, ownerId, change.folderIds, everything)
        .then((recipients) => {
          // Each hears of the folders it may see (audience.ts): a member, of those in its team folders.
          for (const { userId, folderIds: seen } of recipients) {
            const streams = byUser.get(userId);
            if (!streams?.size || (userId !== ownerId && !seen.length && !everything)) continue;
            for (const stream of streams) stream.itemsChanged({ ...change, folderIds: seen });
          }
        })
        .catch(fail);
    },
    { remote: true },
  );

  const closeAll = () => {
    for (const streams of [...byUser.values()]) for (const stream of [...streams]) stream.close();
  };
  // This node may have missed other nodes' events: the browsers reconnect, replay the stored
  // notifications after their last one and refetch what they show (stores/live.ts).
  ctx.events.on('bus.resumed', closeAll, { remote: true });

  return {
    add(stream, max) {
      const streams = byUser.get(stream.userId) ?? new Set();
      if (streams.size >= max) return false;
      streams.add(stream);
      byUser.set(stream.userId, streams);
      return true;
    },
    remove(stream) {
      const streams = byUser.get(stream.userId);
      if (!streams) return;
      streams.delete(stream);
      if (!streams.size) byUser.delete(stream.userId);
    },
    count: (userId) => byUser.get(userId)?.size ?? 0,
    closeAll,
  };
}

/** Ends this context's open event streams, so a shutdown does not wait for them. */
export function closeEventStreams(ctx: AppContext): void {
  hubs.get(ctx.events)?.closeAll();
}
