import { randomUUID } from 'node:crypto';
import { deadNodes } from '../cluster/node.ts';
import type { AppContext } from '../context.ts';
import * as q from '../files/queries.ts';
import type { Db } from '../files/queries.ts';
import { AppError } from '../http/errors.ts';
import type { Settings } from '../settings/service.ts';
import { committedBytes, overQuota, type UploadPolicy } from './limits.ts';

/**
 * Quota promised to uploads in progress. Limits count what is promised, not only what is stored:
 * a tus upload reserves its Upload-Length when it is created, a plain upload its declared length
 * before the bytes flow, and every quota check (limits.ts freeBytes, the finishing step) counts the
 * owner's open reservations as used. A reservation goes when its upload becomes an item (in the
 * finishing transaction, finish.ts), is terminated (tus DELETE), fails, or is swept as abandoned.
 *
 * Rows live in the database (`upload_reservations`), not in memory, so every app node sharing one
 * database sees them. Check and insert are one transaction, on PostgreSQL under the owner's
 * advisory lock (the one moves and finishing uploads take), so two uploads created at once cannot
 * both fit into the last bytes of a quota; on SQLite the single connection runs one transaction at
 * a time.
 */
/** `chunk`: a chunked upload's running total (chunks.ts), swept like tus after `upload_abandon_seconds`. */
export type ReservationKind = 'tus' | 'plain' | 'chunk';

export function tooManyOpenUploads(max: number): AppError {
  return new AppError(429, `You have ${max} unfinished uploads. Finish or cancel one before starting another.`, { code: 'too_many_open_uploads' });
}

/**
 * Checks that `bytes` fit the owner's quota next to what is stored and promised, and that a tus
 * upload stays under the open-upload cap (`max_open_uploads`, 429 `too_many_open_uploads`), and
 * records the reservation; atomically (see above). Throws the 423 `storage_limit_exceeded` of
 * limits.ts when it does not fit.
 */
export async function reserve(ctx: AppContext, policy: UploadPolicy, input: { id: string; ownerId: string; kind: ReservationKind; bytes: number }): Promise<void> {
  const at = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (tx) => {
    if (ctx.config.database.dialect === 'postgres') await q.lockOwnerTree(tx, input.ownerId);
    const max = policy.settings.max_open_uploads;
    if (input.kind === 'tus' && max > 0) {
      const open = await tx
        .selectFrom('upload_reservations')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('owner_id', '=', input.ownerId)
        .where('kind', 'in', ['tus', 'chunk'])
        .executeTakeFirst();
      if (Number(open?.n ?? 0) >= max) throw tooManyOpenUploads(max);
    }
    if (policy.capacity !== null && (await committedBytes(tx, input.ownerId)) + input.bytes > policy.capacity) throw overQuota();
    await tx.insertInto('upload_reservations').values({ id: input.id, owner_id: input.ownerId, kind: input.kind, bytes: input.bytes, created_at: at, touched_at: at, node_id: ctx.nodeId }).execute();
  });
}

export async function releaseReservation(db: Db, id: string): Promise<void> {
  await db.deleteFrom('upload_reservations').where('id', '=', id).execute();
}

/** A sign of life of an upload (a PATCH arriving): the sweep measures abandonment from here. */
export async function touchReservation(ctx: AppContext, id: string): Promise<void> {
  await ctx.db.updateTable('upload_reservations').set({ touched_at: ctx.clock.now().toISOString() }).where('id', '=', id).execute();
}

/** Plain uploads whose request is being read by this process: the sweep keeps their reservations. */
const livePlain = new Set<string>();

/**
 * Runs a plain upload under a reservation of `bytes` (its declared length; null or 0 reserves
 * nothing: the stream is counted against the free quota instead). The work gets the reservation
 * id to hand to the finishing step, which removes it in its transaction; any other ending
 * removes it here.
 */
export async function withPlainReservation<T>(ctx: AppContext, policy: UploadPolicy, ownerId: string, bytes: number | null, work: (reservationId: string | null) => Promise<T>): Promise<T> {
  if (policy.capacity === null || !bytes) return work(null);
  const id = `plain:${randomUUID()}`;
  await reserve(ctx, policy, { id, ownerId, kind: 'plain', bytes });
  livePlain.add(id);
  try {
    return await work(id);
  } finally {
    livePlain.delete(id);
    await releaseReservation(ctx.db, id).catch((error: unknown) => ctx.logger.error({ err: error, reservation: id }, 'could not release an upload reservation'));
  }
}

/**
 * Marks alive the reservations of the plain uploads this process is reading. Every app node does
 * it at each tick of the upload sweep (tus.ts), which itself runs on one node at a time: that node
 * cannot know another's live requests.
 */
export async function renewLiveReservations(ctx: AppContext): Promise<void> {
  if (!livePlain.size) return;
  await ctx.db.updateTable('upload_reservations').set({ touched_at: ctx.clock.now().toISOString() }).where('id', 'in', [...livePlain].slice(0, 1000)).execute();
}

/**
 * The database half of the upload sweep (tus.ts sweepUploads handles the files first): keeps the
 * reservations of plain uploads this process is still reading, and removes reservations with no
 * sign of life, plain ones after `upload_idle_seconds` (their request died with its process) and
 * tus and chunked ones after `upload_abandon_seconds` (an upload whose files are gone or were never made).
 */
export async function sweepReservations(ctx: AppContext, settings: Settings): Promise<number> {
  const now = ctx.clock.now();
  await renewLiveReservations(ctx);
  const dead = await dropDeadPlainReservations(ctx);
  const idleBefore = new Date(now.getTime() - settings.upload_idle_seconds * 1000).toISOString();
  const abandonedBefore = new Date(now.getTime() - settings.upload_abandon_seconds * 1000).toISOString();
  const removed = await ctx.db
    .deleteFrom('upload_reservations')
    .where((eb) => eb.or([eb.and([eb('kind', '=', 'plain'), eb('touched_at', '<', idleBefore)]), eb.and([eb('kind', 'in', ['tus', 'chunk']), eb('touched_at', '<', abandonedBefore)])]))
    .executeTakeFirst();
  return dead + Number(removed.numDeletedRows ?? 0);
}

/**
 * At start and at each sweep: the plain uploads' reservations of processes that are gone. Their
 * requests died with them, so nothing will ever finish or release them; tus and chunked ones stay
 * (their client may resume on any node) until the sweep finds them abandoned, and a live node's
 * are kept by its renewals.
 */
export async function dropDeadPlainReservations(ctx: AppContext): Promise<number> {
  const rows = await ctx.db.selectFrom('upload_reservations').select('node_id').distinct().where('kind', '=', 'plain').execute();
  const dead = [...(await deadNodes(ctx, rows.map((r) => r.node_id)))];
  if (!dead.length) return 0;
  const ids = dead.filter((id): id is string => id !== null);
  const removed = await ctx.db
    .deleteFrom('upload_reservations')
    .where('kind', '=', 'plain')
    .where((eb) => eb.or([...(ids.length ? [eb('node_id', 'in', ids)] : []), ...(dead.includes(null) ? [eb('node_id', 'is', null)] : [])]))
    .executeTakeFirst();
  return Number(removed.numDeletedRows ?? 0);
}
