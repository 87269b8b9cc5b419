import { open } from 'node:fs/promises';

/**
 * fsync by path, shared (group commit): a caller that arrives while a sync of the same path runs
 * waits for the next one, which starts when the running one ends and covers everything all its
 * waiters wrote before they asked. So N concurrent uploads cost about two syncs, not N. Used for the
 * directories that receive new blob names (store.ts) and for SQLite's write-ahead log
 * (uploads/durable.ts). A path that does not exist has nothing to flush (`missingIsFine`).
 */
export function sharedSync(options: { data?: boolean; missingIsFine?: boolean } = {}): (file: string) => Promise<void> {
  const state = new Map<string, { running: Promise<void> | null; next: Promise<void> | null }>();
  const syncOnce = async (file: string) => {
    let handle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      if (options.missingIsFine && (error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      await (options.data ? handle.datasync() : handle.sync());
    } finally {
      await handle.close();
    }
  };
  return (file) => {
    let entry = state.get(file);
    if (!entry) state.set(file, (entry = { running: null, next: null }));
    const e = entry;
    if (e.next) return e.next;
    const start = (): Promise<void> => {
      const run = syncOnce(file).finally(() => {
        e.running = null;
        if (!e.next) state.delete(file);
      });
      e.running = run;
      return run;
    };
    if (!e.running) return start();
    e.next = e.running
      .catch(() => undefined)
      .then(() => {
        e.next = null;
        return start();
      });
    return e.next;
  };
}
