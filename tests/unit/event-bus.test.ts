import { describe, expect, it } from 'vitest';
import { createEventBus, createLocalListeners, crossesNodes } from '../../src/server/events/bus.ts';

describe('the event bus listeners', () => {
  it("hear their own node's events, and another node's only when they asked for `remote`", () => {
    const listeners = createLocalListeners();
    const heard: string[] = [];
    listeners.on('items.changed', () => void heard.push('local only'));
    listeners.on('items.changed', () => void heard.push('remote too'), { remote: true });
    listeners.deliver('items.changed', { ownerId: 'o', folderIds: [], itemIds: [] });
    expect(heard).toEqual(['local only', 'remote too']);
    heard.length = 0;
    listeners.deliver('items.changed', { ownerId: 'o', folderIds: [], itemIds: [] }, true);
    expect(heard).toEqual(['remote too']);
  });

  it('unsubscribes one subscription, even of the same function twice', () => {
    const bus = createEventBus();
    let calls = 0;
    const listener = () => void (calls += 1);
    const off = bus.on('user.registered', listener);
    bus.on('user.registered', listener);
    bus.emit('user.registered', { userId: 'u' });
    expect(calls).toBe(2);
    off();
    bus.emit('user.registered', { userId: 'u' });
    expect(calls).toBe(3);
  });

  it('waits for async listeners with emitAndWait', async () => {
    const bus = createEventBus();
    let done = false;
    bus.on('upload.finished', async () => {
      await Promise.resolve();
      done = true;
    });
    await bus.emitAndWait('upload.finished', { itemId: 'i', ownerId: 'o', name: 'n', principal: { kind: 'user', id: 'o' } });
    expect(done).toBe(true);
  });

  it('lets only the live stream events cross nodes; work that must run once stays with the emitter', () => {
    expect(['notification.created', 'items.changed'].every((name) => crossesNodes(name as never))).toBe(true);
    for (const name of ['user.registered', 'user.password-reset', 'file.created', 'upload.finished', 'bus.resumed'] as const) expect(crossesNodes(name)).toBe(false);
  });
});
