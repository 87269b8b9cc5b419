/** Domain events. Later issues add their own; listeners must not throw. */
export interface DomainEvents {
  'user.registered': { userId: string };
  'user.password-reset': { userId: string };
  /** A file's bytes are stored and its item row exists (uploads, imports); thumbnails listen (the type tells them whether to look). */
  'file.created': { itemId: string; ownerId: string; mimetype: string | null };
  /**
   * An upload became an item (plain, chunked, tus, import). `principal` is who uploaded: the
   * user, or a link (`share`, `request`: its id) or team member acting as the owner. Emitted with
   * `emitAndWait`: listeners finish before the upload is answered.
   */
  'upload.finished': { itemId: string; ownerId: string; name: string; principal: { kind: 'user' | 'share' | 'request' | 'member'; id: string } };
  /** A notification was stored for the user, or a grouped one gathered another event (the live stream sends it). */
  'notification.created': { userId: string; notificationId: string };
  /**
   * Items of the owner were created, renamed, moved, trashed, restored or deleted: `folderIds` are
   * the folders whose listing changed (null: the owner's home), `itemIds` the items themselves.
   * Who hears of it: live/audience.ts. Payloads stay JSON (another process may carry them).
   */
  'items.changed': {
    ownerId: string;
    folderIds: (string | null)[];
    itemIds: string[];
    /** Too many ids to carry between nodes (notify-payload.ts): every listing of the owner's is stale. */
    everything?: true;
  };
  /**
   * Emitted by the PostgreSQL bus alone, to its `remote` listeners, when its lost LISTEN connection
   * is back: what other nodes sent meanwhile was not heard (the live streams start over).
   */
  'bus.resumed': Record<string, never>;
}

/**
 * The events other app nodes hear (PostgreSQL, pg-bus.ts): what an open browser stream on any node
 * is sent (live/hub.ts). Every other event stays on the node that emits it, because its listeners
 * do work that must happen once: `user.registered` (team invitations become notifications),
 * `user.password-reset`, `file.created` (thumbnails), `upload.finished` (an upload request records
 * the file; awaited by the upload). `bus.resumed` is the bus's own, on the node it concerns.
 */
export const CROSSING_EVENTS = ['notification.created', 'items.changed'] as const satisfies readonly (keyof DomainEvents)[];
export type CrossingEvent = (typeof CROSSING_EVENTS)[number];
export const crossesNodes = (name: keyof DomainEvents): name is CrossingEvent => (CROSSING_EVENTS as readonly string[]).includes(name);

export interface ListenOptions {
  /**
   * Also hear this event when another node emits it (only CROSSING_EVENTS travel). Without it a
   * listener hears its own node's events only: work that must run once stays with the emitter.
   */
  remote?: boolean;
}

export type Listener<K extends keyof DomainEvents> = (payload: DomainEvents[K]) => void | Promise<void>;

export interface EventBus {
  emit<K extends keyof DomainEvents>(name: K, payload: DomainEvents[K]): void;
  /** Emits and waits for every listener, async ones included (they must not reject). */
  emitAndWait<K extends keyof DomainEvents>(name: K, payload: DomainEvents[K]): Promise<void>;
  on<K extends keyof DomainEvents>(name: K, listener: Listener<K>, options?: ListenOptions): () => void;
  /** Resolves once this node hears the other nodes (at once with one process). */
  ready(): Promise<void>;
  /** Stops hearing the other nodes and waits for events still being sent to them (shutdown). */
  close(): Promise<void>;
}

/** This process's listeners: what both buses deliver to. */
export interface LocalListeners {
  on: EventBus['on'];
  /** Calls the listeners of `name` (only those that asked for `remote` when it came from another node); answers their results. */
  deliver(name: keyof DomainEvents, payload: unknown, fromAnotherNode?: boolean): unknown[];
}

export function createLocalListeners(): LocalListeners {
  const byName = new Map<keyof DomainEvents, Map<(payload: never) => unknown, ListenOptions>>();
  return {
    on(name, listener, options = {}) {
      const listeners = byName.get(name) ?? new Map();
      byName.set(name, listeners);
      // A copy per subscription, so the same function subscribed twice is two listeners, as with an EventEmitter.
      const entry = (payload: never) => listener(payload);
      listeners.set(entry, options);
      return () => void listeners.delete(entry);
    },
    deliver(name, payload, fromAnotherNode = false) {
      const results: unknown[] = [];
      for (const [listener, options] of [...(byName.get(name) ?? [])]) {
        if (!fromAnotherNode || options.remote) results.push(listener(payload as never));
      }
      return results;
    },
  };
}

/** The bus of one process (SQLite): every listener hears every event. */
export function createEventBus(): EventBus {
  const listeners = createLocalListeners();
  return {
    emit: (name, payload) => void listeners.deliver(name, payload),
    emitAndWait: async (name, payload) => void (await Promise.all(listeners.deliver(name, payload))),
    on: listeners.on,
    ready: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}


