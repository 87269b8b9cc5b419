import { EventEmitter } from 'node:events';

/** Domain events. Later issues add their own; listeners must not throw. */
export interface DomainEvents {
  'user.registered': { userId: string };
  'user.password-reset': { userId: string };
  /** A file's bytes are stored and its item row exists (uploads, imports); thumbnails listen. */
  'file.created': { itemId: string; ownerId: string };
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
  'items.changed': { ownerId: string; folderIds: (string | null)[]; itemIds: string[] };
}

export interface EventBus {
  emit<K extends keyof DomainEvents>(name: K, payload: DomainEvents[K]): void;
  /** Emits and waits for every listener, async ones included (they must not reject). */
  emitAndWait<K extends keyof DomainEvents>(name: K, payload: DomainEvents[K]): Promise<void>;
  on<K extends keyof DomainEvents>(name: K, listener: (payload: DomainEvents[K]) => void | Promise<void>): () => void;
}

/** In-process bus. Several processes will fan out through the database later, behind the same interface. */
export function createEventBus(): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emit: (name, payload) => void emitter.emit(name, payload),
    emitAndWait: async (name, payload) => void (await Promise.all(emitter.listeners(name).map((listener) => (listener as (p: unknown) => unknown)(payload)))),
    on(name, listener) {
      emitter.on(name, listener);
      return () => void emitter.off(name, listener);
    },
  };
}
