import { type FileHandle, open } from 'node:fs/promises';

// Flushing files and folders to the disk with as few calls into the thread pool as possible: the
// blob store (blobs/store.ts) flushes the folders that receive new names, the database layer
// (db/index.ts) the write-ahead log.

/**
 * fsync by path, grouped (below): N concurrent uploads into one folder cost about two syncs of it,
 * not N. Used for the directories that receive new blob names (store.ts); each sync opens the
 * path afresh, as a folder removed by hand is made again by the next write.
 */
export function sharedSync(): (path: string) => Promise<void> {
  const groups = new Map<string, { flush: () => Promise<void>; waiting: number }>();
  return async (file) => {
    let group = groups.get(file);
    if (!group) groups.set(file, (group = { flush: grouped(() => syncPath(file)), waiting: 0 }));
    group.waiting += 1;
    try {
      await group.flush();
    } finally {
      // Nobody waiting means no flush under way or queued: the path's entry goes.
      group.waiting -= 1;
      if (group.waiting === 0) groups.delete(file);
    }
  };
}

/** One flush of a file or folder by its path (open, fsync or with `data` fdatasync, close). */
export async function syncPath(file: string, options: { data?: boolean } = {}): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await (options.data ? handle.datasync() : handle.sync());
  } finally {
    await handle.close();
  }
}

/**
 * Group commit of one flush: a caller that arrives while `run` runs waits for the next run, which
 * starts when this one ends and covers everything its waiters wrote before they asked.
 */
export function grouped(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const start = (): Promise<void> => {
    const current = run().finally(() => {
      running = null;
    });
    running = current;
    return current;
  };
  return () => {
    if (next) return next;
    if (!running) return start();
    next = running
      .catch(() => undefined)
      .then(() => {
        next = null;
        return start();
      });
    return next;
  };
}

/**
 * fdatasync of one file through a handle kept open between flushes, grouped as above: one
 * thread-pool call per flush instead of an open, a sync and a close (each call into the thread
 * pool costs the event loop's thread tens of microseconds). Only for a file that is never replaced
 * while its owner holds this (SQLite's write-ahead log while the connection is open). A file not
 * there yet has nothing to flush; it is opened at the first flush that finds it. `close` lets the
 * handle go (a flush under way finishes first).
 */
export function heldSync(file: string): { sync(): Promise<void>; close(): Promise<void> } {
  let handle: FileHandle | null = null;
  let closed = false;
  const sync = grouped(async () => {
    if (closed) return;
    if (!handle) {
      let opened: FileHandle;
      try {
        opened = await open(file, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      if (closed) return void (await opened.close());
      handle = opened;
    }
    await handle.datasync();
  });
  return {
    sync,
    async close() {
      closed = true;
      const held = handle;
      handle = null;
      await held?.close();
    },
  };
}
