import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_ITEM_CHANGE_PARTS, MAX_NOTIFY_BYTES, notifyPayloads, parseNotifyPayload } from '../../src/server/events/notify-payload.ts';

const NODE = randomUUID();
const ids = (n: number) => Array.from({ length: n }, () => randomUUID());
const decoded = (payloads: string[]) => payloads.map((p) => parseNotifyPayload(p)!);

describe('NOTIFY payloads of crossing events', () => {
  it('sends a small event whole, with the node that emitted it', () => {
    const payloads = notifyPayloads(NODE, 'notification.created', { userId: 'u1', notificationId: 'n1' });
    expect(decoded(payloads)).toEqual([{ node: NODE, name: 'notification.created', payload: { userId: 'u1', notificationId: 'n1' } }]);
  });

  it('splits an item change too large for one payload into parts under the limit that together name every folder and item once', () => {
    const folderIds = [null, ...ids(30)];
    const itemIds = ids(500);
    const payloads = notifyPayloads(NODE, 'items.changed', { ownerId: 'owner', folderIds: [...folderIds, null], itemIds: [...itemIds, itemIds[0]!] });
    expect(payloads.length).toBeGreaterThan(1);
    expect(payloads.length).toBeLessThanOrEqual(MAX_ITEM_CHANGE_PARTS);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_NOTIFY_BYTES);
    const parts = decoded(payloads).map((m) => m.payload as { ownerId: string; folderIds: (string | null)[]; itemIds: string[]; everything?: true });
    for (const part of parts) expect(part).toMatchObject({ ownerId: 'owner' });
    expect(parts.flatMap((p) => p.folderIds)).toEqual(folderIds);
    expect(parts.flatMap((p) => p.itemIds)).toEqual(itemIds);
    expect(parts.some((p) => p.everything)).toBe(false);
  });

  it('fills parts close to the limit (no part but the last is less than nine tenths full)', () => {
    const payloads = notifyPayloads(NODE, 'items.changed', { ownerId: 'owner', folderIds: ['f'], itemIds: ids(600) });
    for (const p of payloads.slice(0, -1)) expect(Buffer.byteLength(p)).toBeGreaterThan(MAX_NOTIFY_BYTES * 0.9);
  });

  it('turns a change that would take more parts than allowed into one owner-wide refresh', () => {
    const payloads = notifyPayloads(NODE, 'items.changed', { ownerId: 'owner', folderIds: ['f1', 'f2'], itemIds: ids(1_000) });
    expect(decoded(payloads)).toEqual([{ node: NODE, name: 'items.changed', payload: { ownerId: 'owner', folderIds: [], itemIds: [], everything: true } }]);
  });

  it('counts bytes, not characters: ids in non-ASCII text still fit', () => {
    const wide = Array.from({ length: 400 }, (_, i) => `ordner-ü-€-${i}`);
    const payloads = notifyPayloads(NODE, 'items.changed', { ownerId: 'owner', folderIds: [], itemIds: wide });
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_NOTIFY_BYTES);
    expect(decoded(payloads).flatMap((m) => (m.payload as { itemIds: string[] }).itemIds)).toEqual(wide);
  });

  it('ignores what is not one of our messages', () => {
    expect(parseNotifyPayload('not json')).toBeNull();
    expect(parseNotifyPayload(JSON.stringify({ name: 'items.changed', payload: {} }))).toBeNull();
    expect(parseNotifyPayload(JSON.stringify({ node: NODE, name: 'items.changed', payload: null }))).toBeNull();
  });
});
