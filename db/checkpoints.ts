import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints on a worker thread. SQLite copies the write-ahead log into the database file
 * (and syncs it) on the connection whose commit crosses `wal_autocheckpoint`; on better-sqlite3
 * that is the event loop, and after a large change (trashing a 10,000-item folder) the copy held
 * every other request for 30–100 ms. The main connection turns automatic checkpoints off and a
 * worker, with its own connection, runs PASSIVE ones (they never wait for, or block, readers and
 * writers) every `intervalMs`.
 *
 * The worker is a second JavaScript engine (about 14 MiB resident), so it runs only while there
 * is something to copy: the main thread looks at its connection's change count every `intervalMs`
 * (`total_changes()`, a counter read, no I/O), starts the worker once changes wait to be copied,
 * and lets it go after `idleMs` without one, its last checkpoint done. A few rows changed (a
 * job's record, a sign-in) wait up to `startAfterMs` for more before the worker starts, so an
 * instance that writes now and then does not start an engine for each write; `startAfterRows`
 * rows changed start it at once. Should a worker fail, the main connection checkpoints again
 * itself, as SQLite does by default.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const checkpoint = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* the next tick tries again */ }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.once('message', () => { clearInterval(timer); checkpoint(); db.close(); parentPort.close(); });
`;

export function checkpointInBackground(
  db: import('better-sqlite3').Database,
  file: string,
  {
    intervalMs = 1000,
    idleMs = 30_000,
    startAfterMs = 10_000,
    startAfterRows = 1000,
    onWorker,
  }: { intervalMs?: number; idleMs?: number; startAfterMs?: number; startAfterRows?: number; onWorker?: (running: boolean) => void } = {},
): () => void {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const changes = db.prepare('SELECT total_changes()').pluck();
  db.pragma('wal_autocheckpoint = 0');
  let worker: Worker | null = null;
  let failed = false;
  let closing = false;
  let seen = changes.get() as number;
  let lastChange = 0;
  // Changes not yet copied while no worker runs: since when, and the change count then.
  let waiting: { since: number; count: number } | null = null;

  const fallBack = () => {
    failed = true;
    clearInterval(timer);
    if (!closing && db.open) db.pragma('wal_autocheckpoint = 1000');
  };
  const start = () => {
    const started = new Worker(WORKER, { eval: true, workerData: { file, intervalMs, module } });
    started.unref();
    started.on('error', fallBack);
    // An exit it was not asked for (the thread crashed) is a failure too.
    started.on('exit', () => {
      if (worker === started) fallBack();
    });
    worker = started;
    onWorker?.(true);
  };
  const stop = () => {
    const stopping = worker;
    worker = null;
    if (!stopping) return;
    stopping.postMessage('close');
    onWorker?.(false);
  };

  const tick = () => {
    if (failed || closing || !db.open) return;
    const now = Date.now();
    const count = changes.get() as number;
    if (count !== seen) {
      if (!worker) waiting ??= { since: now, count: seen };
      seen = count;
      lastChange = now;
    } else if (worker && now - lastChange >= idleMs) {
      stop();
    }
    if (!worker && waiting && (now - waiting.since >= startAfterMs || count - waiting.count >= startAfterRows)) {
      waiting = null;
      start();
    }
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();

  return () => {
    closing = true;
    clearInterval(timer);
    stop();
  };
}
