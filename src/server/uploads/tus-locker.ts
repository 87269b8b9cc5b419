import { ERRORS, MemoryLocker, type Lock, type Locker, type RequestRelease } from '@tus/server';
import type { AppContext } from '../context.ts';
import { LOCK_SPACE, retainAdvisoryLocks, type AdvisoryLocks } from '../cluster/advisory-locks.ts';

const ACQUIRE_TIMEOUT_MS = 30_000;
const POLL_MS = 50;

/**
 * The tus lock of an upload (held by @tus/server for each HEAD, PATCH and DELETE of it) across app
 * nodes, so consecutive PATCHes of one upload may reach different nodes sharing DATA_DIR: first
 * @tus/server's in-process MemoryLocker (which asks an older request of this node for the same
 * upload to let go, as a resuming client expects), then a PostgreSQL advisory lock on the upload's
 * id (cluster/advisory-locks.ts), waited for up to 30 s. A request on another node is not asked to
 * let go: its lock goes when that request ends, or with its node. SQLite keeps the MemoryLocker alone.
 */
export function tusLocker(ctx: AppContext): Locker {
  const memory = new MemoryLocker({ acquireLockTimeout: ACQUIRE_TIMEOUT_MS });
  if (ctx.config.database.dialect !== 'postgres') return memory;
  // Held for the life of the process: the tus server is built once per context.
  const locks = retainAdvisoryLocks(ctx);
  return { newLock: (id) => new AdvisoryLock(id, memory.newLock(id), locks) };
}

class AdvisoryLock implements Lock {
  private readonly id: string;
  private readonly local: Lock;
  private readonly locks: AdvisoryLocks;

  constructor(id: string, local: Lock, locks: AdvisoryLocks) {
    this.id = id;
    this.local = local;
    this.locks = locks;
  }

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    await this.local.lock(signal, requestRelease);
    try {
      const deadline = Date.now() + ACQUIRE_TIMEOUT_MS;
      while (!(await this.locks.tryLock(LOCK_SPACE.tus, this.id))) {
        if (signal.aborted || Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } catch (error) {
      await this.local.unlock();
      throw error;
    }
  }

  async unlock(): Promise<void> {
    try {
      await this.locks.unlock(LOCK_SPACE.tus, this.id);
    } finally {
      await this.local.unlock();
    }
  }
}
