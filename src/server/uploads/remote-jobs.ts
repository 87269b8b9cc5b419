import { randomUUID } from 'node:crypto';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { requireTargetFolder } from '../files/access.ts';
import { takeHourly } from '../http/budget.ts';
import { AppError, badRequest, notFound } from '../http/errors.ts';
import { runEvery } from '../jobs/every.ts';
import { createNotification } from '../notifications/service.ts';
import { getSettings } from '../settings/service.ts';
import { findUserById } from '../users/queries.ts';
import { finishUpload, uploadFinished } from './finish.ts';
import { assertCanUpload, checkBeforeBytes, uploadPolicy } from './limits.ts';
import { receiveToBlob } from './receive.ts';
import { fetchGuarded, nameFor } from './remote-fetch.ts';
import * as q from './remote-queries.ts';
import type { JobRow } from './remote-queries.ts';
import { RemoteRefusal } from './ssrf.ts';

/**
 * The jobs of import from URL: starting one (the user may upload into the folder, within the
 * hourly budget), fetching its URLs one after another in the background (remote-fetch.ts), each
 * through the same limits, type judgement and finishing step as every upload, recording each
 * URL's outcome, and a `remote-upload-done` notification at the end; jobs a dead process left
 * running are marked failed.
 */
export const REMOTE_MAX_BYTES = 10 * 1024 ** 3;
export const REMOTE_DEADLINE_MS = 10 * 60_000;
/** A job still `running` this long after it began belongs to a process that died. */
const STALE_JOB_MS = 6 * 60 * 60_000;

export interface Result {
  url: string;
  status: 'done' | 'failed';
  item_id?: string;
  name?: string;
  message?: string;
}

/** Starts an import of checked http(s) URLs into the user's folder (null: home); the fetching goes on in the background. */
export async function startImport(ctx: AppContext, user: User, input: { urls: string[]; parentId: string | null }): Promise<JobRow> {
  assertCanUpload(user, await uploadPolicy(ctx, user));
  const parent = await requireTargetFolder(ctx, user, input.parentId, 'parent_id');
  await takeImportBudget(ctx, user.id, input.urls.length);
  const job: JobRow = {
    id: randomUUID(), user_id: user.id, parent_id: parent?.id ?? null, status: 'running',
    urls: JSON.stringify(input.urls), results: '[]', created_at: ctx.clock.now().toISOString(), finished_at: null,
  };
  await q.insertJob(ctx.db, job);
  void runJob(ctx, job).catch((error: unknown) => ctx.logger.error({ err: error, job: job.id }, 'remote upload job failed'));
  return job;
}

/** The user's job; another's or an unknown id is a 404. */
export async function findImport(ctx: AppContext, userId: string, id: string): Promise<JobRow> {
  const job = await q.findJob(ctx.db, userId, id);
  if (!job) throw notFound('The import was not found.');
  return job;
}

/** Each URL is a fetch the server makes for the user: `remote_upload_per_user_per_hour` of them an hour (429 past it). */
async function takeImportBudget(ctx: AppContext, userId: string, urls: number): Promise<void> {
  const max = (await getSettings(ctx)).remote_upload_per_user_per_hour;
  const taken = await takeHourly(ctx, `remote-upload:user:${userId}`, urls, max);
  if (!taken.ok) {
    throw new AppError(429, `You can import at most ${max} URLs an hour. Try again in ${Math.ceil(taken.retryAfter / 60)} minutes.`, {
      code: 'remote_upload_limit_exceeded',
      headers: { 'Retry-After': String(taken.retryAfter) },
    });
  }
}

async function runJob(ctx: AppContext, job: JobRow): Promise<void> {
  const results: Result[] = [];
  for (const url of JSON.parse(job.urls) as string[]) {
    try {
      const item = await importOne(ctx, job, url);
      results.push({ url, status: 'done', item_id: item.id, name: item.name });
    } catch (error) {
      const known = error instanceof RemoteRefusal || (error as { isAppError?: boolean }).isAppError;
      if (!known) ctx.logger.warn({ err: error, url, job: job.id }, 'remote upload of a URL failed');
      results.push({ url, status: 'failed', message: known ? (error as Error).message : 'The file could not be fetched.' });
    }
    await q.saveResults(ctx.db, job.id, JSON.stringify(results));
  }
  const done = results.filter((r) => r.status === 'done').length;
  // The job reads as done only together with its notification: whoever sees `done` sees both.
  const notificationId = await ctx.db.transaction().execute(async (trx) => {
    await q.markDone(trx, job.id, ctx.clock.now().toISOString());
    return createNotification({ ...ctx, db: trx }, {
      userId: job.user_id,
      category: 'remote-upload-done',
      title: done === results.length ? 'Your files were imported' : 'Import from URL finished',
      description: `${done} of ${results.length} ${results.length === 1 ? 'file was' : 'files were'} imported.`,
      action: { type: 'route', params: { id: job.parent_id, route: 'Files', button: 'Show files' } },
    });
  });
  // Told after the commit: the live stream reads the row it names.
  ctx.events.emit('notification.created', { userId: job.user_id, notificationId });
}

async function importOne(ctx: AppContext, job: JobRow, href: string) {
  const user = await findUserById(ctx, job.user_id);
  if (!user || user.deletion_started_at) throw badRequest('The account is gone.');
  const policy = await uploadPolicy(ctx, user);
  assertCanUpload(user, policy);
  const deadline = AbortSignal.timeout(REMOTE_DEADLINE_MS);
  const { response, url } = await fetchGuarded(new URL(href), policy.settings.remote_upload_allowlist, deadline);
  try {
    const name = nameFor(response, url);
    const declaredType = response.headers['content-type'] ?? null;
    const length = response.headers['content-length'] === undefined ? null : Number(response.headers['content-length']);
    const declaredSize = length !== null && Number.isSafeInteger(length) && length >= 0 ? length : null;
    if (declaredSize !== null && declaredSize > REMOTE_MAX_BYTES) throw new RemoteRefusal('The file is larger than imports may be.');
    await checkBeforeBytes(ctx, user, policy, { name, declaredType, size: declaredSize });
    const tooBig = { bytes: REMOTE_MAX_BYTES, error: () => new RemoteRefusal('The file is larger than imports may be.') };
    const received = await receiveToBlob(ctx, policy, user.id, response, { name, declaredType, declaredSize }, tooBig);
    const item = await finishUpload(ctx, policy, { ownerId: user.id, parentId: job.parent_id, folders: [], name, ...received });
    await uploadFinished(ctx, item, user.id);
    return item;
  } finally {
    response.destroy();
  }
}

/** Marks jobs left `running` by a process that died as failed, at boot and hourly. */
export function scheduleRemoteUploadRecovery(ctx: AppContext, intervalMs = 60 * 60_000): () => Promise<void> {
  return runEvery(ctx, 'remote upload recovery', intervalMs, async () => {
    const now = ctx.clock.now();
    await q.failStaleJobs(ctx.db, new Date(now.getTime() - STALE_JOB_MS).toISOString(), now.toISOString());
  });
}
