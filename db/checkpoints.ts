import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints on a worker thread. SQLite copies the write-ahead log into the database file
 * (and syncs it) on the connection whose commit crosses `wal_autocheckpoint`; on better-sqlite3
 * that is the event loop, and after a large change (trashing a 10,000-item folder) the copy held
 * every other request for 30–100 ms. The main connection turns automatic checkpoints off and this
 * worker, with its own connection, runs PASSIVE ones (they never wait for, or block, readers and
 * writers) every `intervalMs`. Should the worker die, the main connection checkpoints again itself.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* the next tick tries again */ }
}, workerData.intervalMs);
parentPort.once('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

export function checkpointInBackground(db: import('better-sqlite3').Database, file: string, intervalMs = 1000): () => void {
  let closing = false;
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, intervalMs, module } });
  worker.unref();
  db.pragma('wal_autocheckpoint = 0');
  const fallBack = () => {
    if (closing || !db.open) return;
    db.pragma('wal_autocheckpoint = 1000');
  };
  worker.on('error', fallBack);
  worker.on('exit', fallBack);
  return () => {
    closing = true;
    worker.postMessage('close');
  };
}
