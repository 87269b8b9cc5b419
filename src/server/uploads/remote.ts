import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { z } from 'zod';
import type { RemoteUploadsTable } from '../../../db/schema.ts';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { requireTargetFolder } from '../files/access.ts';
import { takeHourly } from '../http/budget.ts';
import { dataUser, sendJson } from '../http/data-auth.ts';
import { dataRoute } from '../http/data-route.ts';
import { AppError, badRequest, notFound, unsupportedMediaType, validationError } from '../http/errors.ts';
import { runEvery } from '../jobs/every.ts';
import { createNotification } from '../notifications/service.ts';
import { getSettings } from '../settings/service.ts';
import { findUserById } from '../users/queries.ts';
import { finishUpload } from './finish.ts';
import { assertCanUpload, checkBeforeBytes, uploadPolicy } from './limits.ts';
import { uploadName } from './names.ts';
import { receiveToBlob } from './receive.ts';
import { RemoteRefusal, resolveTarget } from './ssrf.ts';

/**
 * Import from URL ("remote upload"), SPEC item 8.
 *
 * - `POST /api/upload/remote` with JSON `{ urls: string[] (1-20, http or https), parent_id: string | null }`
 *   answers 202 `{ data: { id, type: 'remote-upload', attributes: { status, parent_id, urls, results, created_at, finished_at } } }`;
 *   the files are fetched in the background, one after another.
 * - `GET /api/upload/remote/{id}` answers the same resource (the owner only; 404 otherwise).
 *   `status` is `running`, then `done` (each URL's outcome in `results`: `{ url, status: 'done', item_id, name }`
 *   or `{ url, status: 'failed', message }`), or `failed` when the process died during the job.
 * - When a job ends, a `remote-upload-done` notification is stored for the user.
 *
 * Each fetch: the SSRF guard (ssrf.ts) on the URL and on every redirect (followed by hand, at most
 * REMOTE_MAX_REDIRECTS), the connection made to the checked address with the original Host and TLS
 * server name; at most REMOTE_MAX_BYTES (and the upload limit and free quota), an idle timeout and
 * an overall deadline; then the same type judgement and finishing step as every upload.
 */
export const REMOTE_PATH = '/api/upload/remote';
export const REMOTE_MAX_URLS = 20;
export const REMOTE_MAX_REDIRECTS = 5;
export const REMOTE_MAX_BYTES = 10 * 1024 ** 3;
export const REMOTE_IDLE_MS = 30_000;
export const REMOTE_DEADLINE_MS = 10 * 60_000;
/** A job still `running` this long after it began belongs to a process that died. */
const STALE_JOB_MS = 6 * 60 * 60_000;

export function isRemoteUploadRequest(pathname: string): boolean {
  return pathname === REMOTE_PATH || pathname.startsWith(`${REMOTE_PATH}/`);
}

const Body = z.object({
  urls: z.array(z.string().trim().min(1).max(2048)).min(1).max(REMOTE_MAX_URLS),
  parent_id: z.string().max(64).nullable().optional(),
});

interface Result {
  url: string;
  status: 'done' | 'failed';
  item_id?: string;
  name?: string;
  message?: string;
}

type JobRow = RemoteUploadsTable;

function present(job: JobRow) {
  return {
    data: {
      id: job.id,
      type: 'remote-upload',
      attributes: { status: job.status, parent_id: job.parent_id, urls: JSON.parse(job.urls) as string[], results: JSON.parse(job.results) as Result[], created_at: job.created_at, finished_at: job.finished_at },
    },
  };
}

async function readJson(req: IncomingMessage, limit = 64 * 1024): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw unsupportedMediaType('Send JSON.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new AppError(413, 'The request body is too large.');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw badRequest('The body is not valid JSON.');
  }
}

/** `POST /api/upload/remote` starts an import; `GET /api/upload/remote/{id}` reads one. The owner only. */
export const handleRemoteUpload = dataRoute({
  methods: (pathname) => (pathname === REMOTE_PATH ? ['POST'] : pathname.slice(REMOTE_PATH.length + 1).includes('/') ? [] : ['GET']),
  principal: dataUser,
  handle: async ({ ctx, req, res, pathname, principal: { user } }) => {
    if (pathname !== REMOTE_PATH) return sendJson(res, 200, present(await findJob(ctx, user.id, pathname.slice(REMOTE_PATH.length + 1))));
    sendJson(res, 202, present(await startJob(ctx, user, await readJson(req))));
  },
});

async function findJob(ctx: AppContext, userId: string, id: string): Promise<JobRow> {
  const job = await ctx.db.selectFrom('remote_uploads').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!job) throw notFound('The import was not found.');
  return job;
}

async function startJob(ctx: AppContext, user: User, body: unknown): Promise<JobRow> {
  const parsed = Body.safeParse(body);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[issue.path.join('.') || 'body'] ??= []).push(issue.message);
    throw validationError(errors);
  }
  const urls = parsed.data.urls.map((raw, index) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw validationError({ [`urls.${index}`]: ['The URL is not valid.'] });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw validationError({ [`urls.${index}`]: ['Only http and https URLs can be imported.'] });
    return url.href;
  });
  assertCanUpload(user, await uploadPolicy(ctx, user));
  const parent = await requireTargetFolder(ctx, user, parsed.data.parent_id ?? null, 'parent_id');
  await takeImportBudget(ctx, user.id, urls.length);
  const job: JobRow = {
    id: randomUUID(), user_id: user.id, parent_id: parent?.id ?? null, status: 'running',
    urls: JSON.stringify(urls), results: '[]', created_at: ctx.clock.now().toISOString(), finished_at: null,
  };
  await ctx.db.insertInto('remote_uploads').values(job).execute();
  void runJob(ctx, job).catch((error: unknown) => ctx.logger.error({ err: error, job: job.id }, 'remote upload job failed'));
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
    await ctx.db.updateTable('remote_uploads').set({ results: JSON.stringify(results) }).where('id', '=', job.id).execute();
  }
  const done = results.filter((r) => r.status === 'done').length;
  // The job reads as done only together with its notification: whoever sees `done` sees both.
  const notificationId = await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('remote_uploads').set({ status: 'done', finished_at: ctx.clock.now().toISOString() }).where('id', '=', job.id).execute();
    return createNotification({ ...ctx, db: trx }, {
      userId: job.user_id,
      category: 'remote-upload-done',
      title: done === results.length ? 'Your files were imported' : 'Import from URL finished',
      description: `${done} of ${results.length} ${results.length === 1 ? 'file was' : 'files were'} imported.`,
      action: { type: 'route', params: { id: job.parent_id, route: 'Files', button: 'Show files' } },
    });
  });
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
    return await finishUpload(ctx, policy, { ownerId: user.id, parentId: job.parent_id, folders: [], name, ...received });
  } finally {
    response.destroy();
  }
}

/** GETs the URL, following redirects by hand; every hop goes through the SSRF guard first. */
async function fetchGuarded(start: URL, allowlist: readonly string[], deadline: AbortSignal): Promise<{ response: IncomingMessage; url: URL }> {
  let url = start;
  for (let hop = 0; hop <= REMOTE_MAX_REDIRECTS; hop += 1) {
    const target = await resolveTarget(url, allowlist);
    const response = await get(url, target.address, deadline);
    const status = response.statusCode ?? 0;
    if ([301, 302, 303, 307, 308].includes(status)) {
      const location = response.headers.location;
      response.destroy();
      if (!location) throw new RemoteRefusal(`The server answered ${status} without a Location.`);
      url = new URL(location, url);
      continue;
    }
    if (status !== 200) {
      response.destroy();
      throw new RemoteRefusal(`The server answered ${status}.`);
    }
    return { response, url };
  }
  throw new RemoteRefusal('Too many redirects.');
}

function get(url: URL, address: string, deadline: AbortSignal): Promise<IncomingMessage> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request({
      host: address,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { Host: url.host, 'User-Agent': 'CloudDrive-Import/1.0', Accept: '*/*', 'Accept-Encoding': 'identity' },
      // TLS: the certificate is checked against the URL's host name, not the address.
      ...(secure ? { servername: url.hostname.replace(/^\[|\]$/g, '') } : {}),
      signal: deadline,
      agent: false,
    });
    req.setTimeout(REMOTE_IDLE_MS, () => req.destroy(new RemoteRefusal('The server stopped answering.')));
    req.on('response', resolve);
    req.on('error', (error) => reject(error instanceof RemoteRefusal ? error : deadline.aborted ? new RemoteRefusal('The download took too long.') : error));
    req.end();
  });
}

/** The file name: Content-Disposition's, else the URL's last path segment, made acceptable; `download` at worst. */
function nameFor(response: IncomingMessage, url: URL): string {
  const disposition = response.headers['content-disposition'] ?? '';
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition)?.[1];
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition)?.[1];
  const last = url.pathname.split('/').filter(Boolean).pop();
  for (const raw of [star, plain, last]) {
    if (!raw) continue;
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      /* keep it as it is */
    }
    // eslint-disable-next-line no-control-regex
    const cleaned = decoded.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim();
    try {
      return uploadName(cleaned);
    } catch {
      /* try the next source */
    }
  }
  return 'download';
}

/** Marks jobs left `running` by a process that died as failed, at boot and hourly. */
export function scheduleRemoteUploadRecovery(ctx: AppContext, intervalMs = 60 * 60_000): () => Promise<void> {
  return runEvery(ctx, 'remote upload recovery', intervalMs, async () => {
    const cutoff = new Date(ctx.clock.now().getTime() - STALE_JOB_MS).toISOString();
    await ctx.db
      .updateTable('remote_uploads')
      .set({ status: 'failed', finished_at: ctx.clock.now().toISOString() })
      .where('status', '=', 'running')
      .where('created_at', '<', cutoff)
      .execute();
  });
}
