import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { requireSignedIn, viewOfNode } from '../auth/principal.ts';
import { sendJson } from '../http/data-auth.ts';
import { dataRoute } from '../http/data-route.ts';
import { AppError, badRequest, unsupportedMediaType, validationError } from '../http/errors.ts';
import { findImport, startImport, type Result } from './remote-jobs.ts';
import type { JobRow } from './remote-queries.ts';

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
 * This file is the route (the body checked, the resource presented); the jobs are remote-jobs.ts,
 * each fetch remote-fetch.ts (the SSRF guard on the URL and on every redirect), their rows
 * remote-queries.ts. Each fetch takes at most REMOTE_MAX_BYTES (and the upload limit and free
 * quota), with an idle timeout and an overall deadline, then the same type judgement and finishing
 * step as every upload.
 */
export const REMOTE_PATH = '/api/upload/remote';
export const REMOTE_MAX_URLS = 20;

export function isRemoteUploadRequest(pathname: string): boolean {
  return pathname === REMOTE_PATH || pathname.startsWith(`${REMOTE_PATH}/`);
}

const Body = z.object({
  urls: z.array(z.string().trim().min(1).max(2048)).min(1).max(REMOTE_MAX_URLS),
  parent_id: z.string().max(64).nullable().optional(),
});

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
  principal: (ctx, req, pathname) => requireSignedIn(ctx, viewOfNode(req, pathname)),
  handle: async ({ ctx, req, res, pathname, principal: { user } }) => {
    if (pathname !== REMOTE_PATH) return sendJson(res, 200, present(await findImport(ctx, user.id, pathname.slice(REMOTE_PATH.length + 1))));
    sendJson(res, 202, present(await startImport(ctx, user, parseImport(await readJson(req)))));
  },
});

/** The body of `POST /api/upload/remote`, checked: 1-20 http(s) URLs and the folder (422 otherwise). */
function parseImport(body: unknown): { urls: string[]; parentId: string | null } {
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
  return { urls, parentId: parsed.data.parent_id ?? null };
}

export { scheduleRemoteUploadRecovery } from './remote-jobs.ts';
