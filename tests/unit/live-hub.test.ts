import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/server/context.ts';
import { createEventBus } from '../../src/server/events/bus.ts';
import { closeEventStreams, hubFor, type LiveStream } from '../../src/server/live/hub.ts';

function fakeContext(): AppContext {
  return { events: createEventBus(), logger: { error: () => undefined } } as unknown as AppContext;
}

function fakeStream(userId: string) {
  const changes: { folderIds: (string | null)[]; itemIds: string[] }[] = [];
  let closed = false;
  const stream: LiveStream = { userId, notification: () => undefined, itemsChanged: (c) => void changes.push(c), close: () => void (closed = true) };
  return { stream, changes, closed: () => closed };
}

describe('the live hub', () => {
  it('caps open streams per user, and frees a place when one is removed', () => {
    const hub = hubFor(fakeContext());
    const a = fakeStream('u1');
    const b = fakeStream('u1');
    expect(hub.add(a.stream, 1)).toBe(true);
    expect(hub.add(b.stream, 1)).toBe(false);
    expect(hub.add(fakeStream('u2').stream, 1)).toBe(true);
    hub.remove(a.stream);
    expect(hub.count('u1')).toBe(0);
    expect(hub.add(b.stream, 1)).toBe(true);
  });

  it("sends an item change to the owner's streams only, without duplicate ids, and closes them all on shutdown", async () => {
    const ctx = fakeContext();
    // No database here: the owner alone hears (audience.ts adds team members from the database).
    const hub = hubFor(ctx, async (_ctx, ownerId, folderIds) => [{ userId: ownerId, folderIds }]);
    const owner = fakeStream('owner');
    const other = fakeStream('other');
    hub.add(owner.stream, 5);
    hub.add(other.stream, 5);
    ctx.events.emit('items.changed', { ownerId: 'owner', folderIds: [null, 'f1', null], itemIds: ['i1', 'i1'] });
    await expect.poll(() => owner.changes).toEqual([{ folderIds: [null, 'f1'], itemIds: ['i1'] }]);
    expect(other.changes).toEqual([]);
    closeEventStreams(ctx);
    expect(owner.closed() && other.closed()).toBe(true);
  });

  it("passes an owner-wide change on as one, and ends every stream when the bus heard the other nodes again after a gap", async () => {
    const ctx = fakeContext();
    const asked: unknown[][] = [];
    const hub = hubFor(ctx, async (_ctx, ownerId, folderIds, everything) => {
      asked.push([ownerId, folderIds, everything]);
      return [{ userId: ownerId, folderIds }];
    });
    const owner = fakeStream('owner');
    hub.add(owner.stream, 5);
    ctx.events.emit('items.changed', { ownerId: 'owner', folderIds: [], itemIds: [], everything: true });
    await expect.poll(() => owner.changes).toEqual([{ folderIds: [], itemIds: [], everything: true }]);
    expect(asked).toEqual([['owner', [], true]]);
    ctx.events.emit('bus.resumed', {});
    expect(owner.closed()).toBe(true);
  });
});
