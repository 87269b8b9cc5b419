import type { IncomingMessage } from 'node:http';
import { credentialHolds, requireSignedIn, viewOfNode } from '../auth/principal.ts';
import { dataRoute } from '../http/data-route.ts';
import { AppError } from '../http/errors.ts';
import { presentNotification } from '../notifications/service.ts';
import { notificationsAfter, type NotificationRow } from '../notifications/queries.ts';
import { hubFor, type LiveStream } from './hub.ts';

/**
 * GET /api/events: the signed-in user's live events as Server-Sent Events (cookie or bearer token).
 *
 *     event: notification    id: <created_at>/<notification id>   data: { "data": <notification resource> }
 *     event: items           data: { "folder_ids": [...], "item_ids": [...] }   (null: home)
 *                            or { "folder_ids": [], "item_ids": [], "everything": true }: all the
 *                            owner's listings changed (another node's change too large to name)
 *     : heartbeat            every EVENTS_HEARTBEAT_MS
 *
 * Only notifications carry an id: a client that comes back with `Last-Event-ID` (or
 * `?last_event_id=`, for a client that opens a new stream) gets the notifications stored or
 * gathered since, re-read from the notifications table (at most REPLAY_LIMIT); item changes are
 * not kept, so a client that was away refetches what it shows. At most EVENTS_MAX_STREAMS open
 * streams per user (per process); one more is refused with 429.
 *
 * A stream lives only as long as its sign-in: before events go out, and at each heartbeat, it asks
 * whether its session or access token still holds (credentialHolds), and closes when it does not
 * (a sign-out, a revoked token, an expired session, an account being deleted), on any node.
 */
export const EVENTS_PATH = '/api/events';

export const REPLAY_LIMIT = 100;

/** Send buffer a stream may hold for a client that does not read; beyond it the stream is closed. */
const MAX_BUFFERED = 1024 * 1024;

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export const cursorOf = (row: Pick<NotificationRow, 'created_at' | 'id'>) => `${row.created_at}/${row.id}`;

/** Where a resumed stream starts: the Last-Event-ID header, else `?last_event_id=`; 400 when malformed. */
export function resumePoint(req: IncomingMessage): { createdAt: string; id: string } | null {
  const header = req.headers['last-event-id'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const fromQuery = new URL(req.url ?? '/', 'http://x').searchParams.get('last_event_id');
  const raw = (fromHeader || fromQuery || '').trim();
  if (!raw) return null;
  const match = raw.length <= 100 ? CURSOR.exec(raw) : null;
  if (!match || Number.isNaN(Date.parse(match[1]!))) {
    throw new AppError(400, 'The Last-Event-ID is not an event id of this stream.', { code: 'invalid_last_event_id' });
  }
  return { createdAt: match[1]!, id: match[2]!.toLowerCase() };
}

export const handleEvents = dataRoute({
  methods: ['GET'],
  methodMessage: (method) => `The event stream is read with GET, not ${method}.`,
  principal: (ctx, req, pathname) => requireSignedIn(ctx, viewOfNode(req, pathname)),
  async handle({ ctx, req, res, principal }) {
    const user = principal.user;
    const view = viewOfNode(req);
    const resume = resumePoint(req);
    const hub = hubFor(ctx);
    const max = ctx.config.events.maxStreams;
    if (hub.count(user.id) >= max) {
      throw new AppError(429, `Too many open event streams: at most ${max} per account. Close another tab or window of this app and try again.`, {
        code: 'too_many_streams',
        headers: { 'Retry-After': '30' },
      });
    }

    let replaying = true;
    const held: NotificationRow[] = [];
    const sent = new Set<string>();
    const write = (chunk: string) => {
      if (res.writableEnded || res.destroyed) return;
      res.write(chunk);
      if (res.writableLength > MAX_BUFFERED) stream.close();
    };
    // Events wait for a check of the credential that began after they came (one check for all that
    // came meanwhile): none is sent once the sign-in has ended. A check that fails closes too: the
    // browser opens the stream again, signed in or not.
    const stillSignedIn = () => credentialHolds(ctx, principal, view).catch(() => false);
    const pending: string[] = [];
    let sending = false;
    const send = (chunk: string) => {
      pending.push(chunk);
      if (!sending) void flush();
    };
    const flush = async () => {
      sending = true;
      while (pending.length && !cleaned) {
        const batch = pending.splice(0);
        if (!(await stillSignedIn())) return stream.close();
        for (const chunk of batch) write(chunk);
      }
      sending = false;
    };
    const sendNotification = (row: NotificationRow) => {
      const cursor = cursorOf(row);
      if (sent.has(cursor)) return;
      sent.add(cursor);
      send(`event: notification\nid: ${cursor}\ndata: ${JSON.stringify({ data: presentNotification(row) })}\n\n`);
    };
    const stream: LiveStream = {
      userId: user.id,
      notification: (row) => (replaying ? held.push(row) : sendNotification(row)),
      itemsChanged: ({ folderIds, itemIds, everything }) =>
        send(`event: items\ndata: ${JSON.stringify({ folder_ids: folderIds, item_ids: itemIds, ...(everything ? { everything } : {}) })}\n\n`),
      close: () => {
        if (!res.writableEnded) res.end();
        cleanup();
      },
    };
    const heartbeat = setInterval(() => send(': heartbeat\n\n'), ctx.config.events.heartbeatMs);
    heartbeat.unref();
    let cleaned = false;
    const cleanup = () => {
      if (cleaned) return;
      cleaned = true;
      clearInterval(heartbeat);
      hub.remove(stream);
    };
    hub.add(stream, max);
    req.on('close', cleanup);
    res.on('close', cleanup);

    req.socket.setNoDelay(true);
    req.socket.setTimeout(0);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
      'X-Content-Type-Options': 'nosniff',
      Connection: 'keep-alive',
    });
    write('retry: 3000\n: connected\n\n');
    try {
      if (resume) for (const row of await notificationsAfter(ctx, user.id, resume, REPLAY_LIMIT)) sendNotification(row);
    } finally {
      replaying = false;
      for (const row of held.splice(0)) sendNotification(row);
    }
  },
});
