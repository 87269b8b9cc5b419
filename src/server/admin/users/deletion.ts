import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import { z } from 'zod';
import type { UserDeletionsTable } from '../../../../db/schema.ts';
import type { User } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../files/queries.ts';
import { lockOwnerTree } from '../../files/queries.ts';
import { notFound, validationError } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { runEvery } from '../../jobs/every.ts';
import { eraseAccount } from '../../users/erase.ts';
import { LOCK_SPACE, retainAdvisoryLocks } from '../../cluster/advisory-locks.ts';
import { recordAudit } from '../audit.ts';
import { requireAdmin } from '../guard.ts';

/**
 * The Delete tab of the admin's user screen. Starting a deletion checks the confirmation (the
 * account's email typed again) and the roster rules (not oneself, not the last administrator),
 * then, in one transaction, writes the job row (user_deletions), marks the account as being
 * deleted (no sign-in, no session or token accepted from that instant) and ends its sessions and
 * tokens. The removal itself (users/erase.ts) runs after the answer, in batches; a job a crash or
 * restart interrupted is taken up again by the deletion job (at start and every few minutes).
 */

type Deletion = Selectable<UserDeletionsTable>;

const StartInput = z.strictObject(
  { email: z.string({ error: 'Type the email address of the account to confirm.' }).trim().min(1, { error: 'Type the email address of the account to confirm.' }).max(255) },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}.` : 'The body must be an object.') },
);

const latestDeletion = (db: Db, userId: string) =>
  db.selectFrom('user_deletions').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();

const findUser = (db: Db, id: string | undefined) => (id && id.length <= 100 ? db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst() : Promise.resolve(undefined));

/** Administrators other than `userId` whose accounts are not being deleted. */
async function otherAdmins(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('role', '=', 'admin')
    .where('deletion_started_at', 'is', null)
    .where('id', '!=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Why `actor` may not delete `user`, or null: the same rules the start enforces. */
async function refusal(db: Db, actor: User, user: User): Promise<'last_admin' | 'self' | null> {
  if (user.role === 'admin' && (await otherAdmins(db, user.id)) === 0) return 'last_admin';
  if (user.id === actor.id) return 'self';
  return null;
}

const REFUSALS = {
  last_admin: 'This is the last administrator: make someone else an administrator before deleting this account.',
  self: 'You cannot delete your own account from the admin area.',
};

/** What the account holds now: shown before the deletion is confirmed. */
async function holdings(db: Db, userId: string) {
  const row = await db
    .selectFrom('items')
    .select((eb) => [
      eb.fn.sum<number | string | null>(eb.case().when('type', '=', 'file').then(1).else(0).end()).as('files'),
      eb.fn.sum<number | string | null>(eb.case().when('type', '=', 'folder').then(1).else(0).end()).as('folders'),
      eb.fn.sum<number | string | null>('size').as('bytes'),
    ])
    .where('owner_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { files: Number(row.files ?? 0), folders: Number(row.folders ?? 0), bytes: Number(row.bytes ?? 0) };
}

async function present(ctx: AppContext, actor: User, user: User | undefined, job: Deletion | undefined) {
  const live = user && !user.deletion_started_at ? user : undefined;
  const refused = live ? await refusal(ctx.db, actor, live) : null;
  return {
    data: {
      id: user?.id ?? job!.user_id,
      type: 'user-deletion',
      attributes: {
        email: job?.email ?? user!.email,
        name: job?.name ?? user!.name,
        /** none: not asked for (or an earlier one left the account); running; done: the account is gone. */
        state: live ? ('none' as const) : job!.state,
        deletion_id: live ? null : job!.id,
        requested_by: live ? null : { id: job!.requested_by, name: job!.requested_by_name },
        started_at: live ? null : job!.created_at,
        finished_at: live ? null : job!.finished_at,
        /** Removed so far (running) or in all (done). */
        removed: live
          ? null
          : { files: Number(job!.files), folders: Number(job!.folders), bytes: Number(job!.bytes), shares: Number(job!.shares), upload_requests: Number(job!.upload_requests) },
        /** What the account holds, while it is not being deleted. */
        holds: live ? await holdings(ctx.db, live.id) : null,
      },
      meta: { can_delete: !!live && !refused, refusal: refused ? { code: refused, message: REFUSALS[refused] } : null },
    },
  };
}

export type UserDeletionResource = Awaited<ReturnType<typeof present>>;

export async function userDeletionStatus(ctx: AppContext, actor: User, id: string | undefined): Promise<UserDeletionResource> {
  requireAdmin(actor);
  const user = await findUser(ctx.db, id);
  const job = id && id.length <= 100 ? await latestDeletion(ctx.db, id) : undefined;
  if (!user && !job) throw notFound('The user was not found.');
  return present(ctx, actor, user, user && !user.deletion_started_at ? undefined : job);
}

/** Starts (or, when one is under way, answers) the deletion of an account. */
export async function startUserDeletion(ctx: AppContext, actor: User, id: string | undefined, body: unknown): Promise<UserDeletionResource> {
  requireAdmin(actor);
  const input = validate(StartInput, body);
  const found = await findUser(ctx.db, id);
  if (!found) throw notFound('The user was not found.');
  if (!found.deletion_started_at && input.email.toLowerCase() !== found.email.toLowerCase()) {
    throw validationError({ email: ['The email does not match this account. Type it exactly to confirm.'] });
  }
  const at = ctx.clock.now().toISOString();
  const job = await ctx.db.transaction().execute(async (tx) => {
    if (ctx.config.database.dialect === 'postgres') {
      // Two admins deleting each other at once must not both pass the last-admin rule.
      await sql`select pg_advisory_xact_lock(hashtext('admin-roster'))`.execute(tx);
      await lockOwnerTree(tx, found.id);
    }
    const user = await findUser(tx, found.id);
    if (!user) throw notFound('The user was not found.');
    if (user.deletion_started_at) return (await latestDeletion(tx, user.id))!;
    const refused = await refusal(tx, actor, user);
    if (refused) throw validationError({ email: [REFUSALS[refused]] }, REFUSALS[refused]);
    const row: Deletion = {
      id: randomUUID(),
      user_id: user.id,
      email: user.email,
      name: user.name,
      requested_by: actor.id,
      requested_by_name: actor.name || actor.email,
      state: 'running',
      files: 0,
      folders: 0,
      bytes: 0,
      shares: 0,
      upload_requests: 0,
      created_at: at,
      updated_at: at,
      finished_at: null,
    };
    await tx.insertInto('user_deletions').values(row).execute();
    await tx.updateTable('users').set({ deletion_started_at: at, updated_at: at }).where('id', '=', user.id).execute();
    for (const table of ['sessions', 'access_tokens', 'password_resets', 'email_verifications', 'sign_in_devices'] as const) {
      await tx.deleteFrom(table).where('user_id', '=', user.id).execute();
    }
    await recordAudit(ctx, tx, actor, {
      action: 'user.delete',
      target_type: 'user',
      target_id: user.id,
      target_label: user.email,
      before: { email: user.email, name: user.name, role: user.role },
      after: { deletion_id: row.id },
    });
    return row;
  });
  void runUserDeletion(ctx, job.id);
  return present(ctx, actor, await findUser(ctx.db, found.id), job);
}

/**
 * Deletions running in this process, so the resume job never starts a second run of one; across
 * app nodes each run holds the deletion's advisory lock (a run found locked is another node's: left to it).
 */
const running = new WeakMap<AppContext, Map<string, Promise<void>>>();

/** Runs (or joins the run of) one deletion to its end; a failure is logged and left for the next resume. */
export function runUserDeletion(ctx: AppContext, jobId: string): Promise<void> {
  let inFlight = running.get(ctx);
  if (!inFlight) running.set(ctx, (inFlight = new Map()));
  const existing = inFlight.get(jobId);
  if (existing) return existing;
  const work = (async () => {
    const locks = retainAdvisoryLocks(ctx);
    try {
      if (!(await locks.tryLock(LOCK_SPACE.deletion, jobId))) return;
      try {
        const job = await ctx.db.selectFrom('user_deletions').select(['id', 'user_id', 'state']).where('id', '=', jobId).executeTakeFirst();
        if (job?.state !== 'running') return;
        await eraseAccount(ctx, job);
        ctx.logger.info({ deletion: jobId, user: job.user_id }, 'account deleted');
      } finally {
        await locks.unlock(LOCK_SPACE.deletion, jobId);
      }
    } finally {
      await locks.release();
    }
  })()
    .catch((error: unknown) => ctx.logger.error({ err: error, deletion: jobId }, 'account deletion failed; it is taken up again later'))
    .finally(() => inFlight.delete(jobId));
  inFlight.set(jobId, work);
  return work;
}

/** Takes up every unfinished deletion (after a crash or restart), one after another. */
export async function resumeUserDeletions(ctx: AppContext): Promise<number> {
  const jobs = await ctx.db.selectFrom('user_deletions').select('id').where('state', '=', 'running').orderBy('created_at').limit(100).execute();
  for (const job of jobs) await runUserDeletion(ctx, job.id);
  return jobs.length;
}

export const DELETION_RESUME_MS = 5 * 60_000;

/** Resumes unfinished deletions at start and every five minutes; the returned function stops it. */
export function scheduleUserDeletions(ctx: AppContext, intervalMs = DELETION_RESUME_MS): () => Promise<void> {
  return runEvery(ctx, 'account deletions', intervalMs, () => resumeUserDeletions(ctx));
}
