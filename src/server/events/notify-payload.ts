import type { CrossingEvent, DomainEvents } from './bus.ts';

/** The one PostgreSQL channel every node publishes its crossing events on and listens to. */
export const NOTIFY_CHANNEL = 'cloud_drive_events';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more (its default build). */
export const MAX_NOTIFY_BYTES = 7999;

/**
 * Messages one item change may take. Beyond it (a move of about 800 items) the other nodes are
 * told that everything of the owner's changed: one message, and the clients refetch what they show.
 */
export const MAX_ITEM_CHANGE_PARTS = 4;

/** What travels on the channel: the event, and the node that emitted it (which ignores its own). */
export interface NotifyMessage<K extends CrossingEvent = CrossingEvent> {
  node: string;
  name: K;
  payload: DomainEvents[K];
}

type ItemsChanged = DomainEvents['items.changed'];

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * The NOTIFY payloads that carry one event, each under MAX_NOTIFY_BYTES. An item change too large
 * for one is split: every part names the owner and a share of the folder and item ids, so the
 * parts together reach the same users and listings as the whole (live/audience.ts, the client's
 * live store). An empty list: the event cannot travel (logged by the caller).
 */
export function notifyPayloads<K extends CrossingEvent>(node: string, name: K, payload: DomainEvents[K]): string[] {
  const encode = (p: DomainEvents[K]) => JSON.stringify({ node, name, payload: p } satisfies NotifyMessage<K>);
  const whole = encode(payload);
  if (bytes(whole) <= MAX_NOTIFY_BYTES) return [whole];
  if (name !== 'items.changed') return [];
  return splitItemsChanged(payload as ItemsChanged, (p) => encode(p as DomainEvents[K]));
}

function splitItemsChanged(change: ItemsChanged, encode: (p: ItemsChanged) => string): string[] {
  const everything = [encode({ ownerId: change.ownerId, folderIds: [], itemIds: [], everything: true })];
  const empty = (): ItemsChanged => ({ ownerId: change.ownerId, folderIds: [], itemIds: [] });
  const base = bytes(encode(empty()));
  const parts: ItemsChanged[] = [];
  let part = empty();
  let size = base;
  const add = (list: 'folderIds' | 'itemIds', id: string | null): boolean => {
    // Each id costs its JSON and a comma (one too many per list: the estimate errs on the safe side).
    const cost = bytes(JSON.stringify(id)) + 1;
    if (base + cost > MAX_NOTIFY_BYTES) return false;
    if (size + cost > MAX_NOTIFY_BYTES) {
      parts.push(part);
      part = empty();
      size = base;
    }
    (part[list] as (string | null)[]).push(id);
    size += cost;
    return parts.length < MAX_ITEM_CHANGE_PARTS;
  };
  for (const id of new Set(change.folderIds)) if (!add('folderIds', id)) return everything;
  for (const id of new Set(change.itemIds)) if (!add('itemIds', id)) return everything;
  parts.push(part);
  return parts.map(encode);
}

/** A payload heard on the channel, or null when it is not one of ours. */
export function parseNotifyPayload(text: string): NotifyMessage | null {
  try {
    const message = JSON.parse(text) as Partial<NotifyMessage>;
    if (typeof message?.node !== 'string' || typeof message.name !== 'string' || typeof message.payload !== 'object' || message.payload === null) return null;
    return message as NotifyMessage;
  } catch {
    return null;
  }
}
