import type { AppContext } from '../context.ts';

/** Notification reads the live stream needs (live/stream.ts). */

export type NotificationRow = Awaited<ReturnType<typeof findNotification>> & object;

/** The user's notification with this id, or undefined (gone, or another user's). */
export function findNotification(ctx: AppContext, userId: string, id: string) {
  return ctx.db.selectFrom('notifications').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/**
 * The user's notifications stored (or gathered again) after the position (`created_at`, `id`), oldest
 * first, at most `limit`: what a resumed stream missed.
 */
export function notificationsAfter(ctx: AppContext, userId: string, after: { createdAt: string; id: string }, limit: number) {
  return ctx.db
    .selectFrom('notifications')
    .selectAll()
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('created_at', '>', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)])]))
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();
}
