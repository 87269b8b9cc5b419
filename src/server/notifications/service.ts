import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';

/** SPEC §3 notification action: a link to a named route with an id, or an invitation. */
export interface NotificationAction {
  type: 'route' | 'invitation';
  params: { id: string | null; route: string; button: string };
}

/**
 * Stores a notification for the user; the notification centre shows it through the user resource,
 * and the live stream (`notification.created`) at once. Inside a caller's transaction the event is
 * the caller's to emit after the commit (a listener must find the row).
 */
export async function createNotification(
  ctx: AppContext,
  input: { userId: string; category: string; title: string; description: string; action: NotificationAction | null },
): Promise<string> {
  const id = randomUUID();
  await ctx.db
    .insertInto('notifications')
    .values({ id, user_id: input.userId, category: input.category, title: input.title, description: input.description, action: input.action ? JSON.stringify(input.action) : null, read_at: null, created_at: ctx.clock.now().toISOString(), group_key: null })
    .execute();
  if (!ctx.db.isTransaction) ctx.events.emit('notification.created', { userId: input.userId, notificationId: id });
  return id;
}

/** How long an unread grouped notification keeps gathering: events further apart are another session. */
export const GROUP_WINDOW_MS = 30 * 60_000;

/**
 * Stores an event that belongs with others of its `groupKey`: while the user has not read the last
 * one and it is younger than GROUP_WINDOW_MS, it gathers this event too (its count goes up, its
 * text is written again for the new count and it moves to the top); otherwise a new one starts.
 */
export async function addGroupedNotification(
  ctx: AppContext,
  input: { userId: string; category: string; groupKey: string; action: NotificationAction | null; describe: (count: number) => { title: string; description: string } },
): Promise<string> {
  const now = ctx.clock.now();
  const open = await ctx.db
    .selectFrom('notifications')
    .select(['id', 'count'])
    .where('user_id', '=', input.userId)
    .where('group_key', '=', input.groupKey)
    .where('read_at', 'is', null)
    .where('created_at', '>=', new Date(now.getTime() - GROUP_WINDOW_MS).toISOString())
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (open) {
    const count = open.count + 1;
    await ctx.db.updateTable('notifications').set({ ...input.describe(count), count, created_at: now.toISOString() }).where('id', '=', open.id).execute();
    ctx.events.emit('notification.created', { userId: input.userId, notificationId: open.id });
    return open.id;
  }
  const id = randomUUID();
  await ctx.db
    .insertInto('notifications')
    .values({ id, user_id: input.userId, category: input.category, ...input.describe(1), action: input.action ? JSON.stringify(input.action) : null, read_at: null, created_at: now.toISOString(), group_key: input.groupKey, count: 1 })
    .execute();
  ctx.events.emit('notification.created', { userId: input.userId, notificationId: id });
  return id;
}

/** SPEC §3 notification resource. */
export interface NotificationData {
  id: string;
  type: 'notification';
  attributes: { category: string; title: string; description: string; created_at: string; read_at: string | null; action: NotificationAction | null };
}

/** How many notifications the user resource carries in each group, newest first. */
export const NOTIFICATIONS_SHOWN = 50;

function parseAction(raw: string | null): NotificationAction | null {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as NotificationAction;
  } catch {
    return null;
  }
}

/** One notification row as SPEC §3's notification resource. */
export function presentNotification(row: { id: string; category: string; title: string; description: string; created_at: string; read_at: string | null; action: string | null }): NotificationData {
  return {
    id: row.id,
    type: 'notification',
    attributes: { category: row.category, title: row.title, description: row.description, created_at: row.created_at, read_at: row.read_at, action: parseAction(row.action) },
  };
}

/** The user's unread and read notifications, newest first, at most NOTIFICATIONS_SHOWN of each. */
export async function listNotifications(ctx: AppContext, userId: string): Promise<{ unread: NotificationData[]; read: NotificationData[] }> {
  const group = (unread: boolean) => {
    const query = ctx.db.selectFrom('notifications').selectAll().where('user_id', '=', userId);
    return (unread ? query.where('read_at', 'is', null) : query.where('read_at', 'is not', null)).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(NOTIFICATIONS_SHOWN).execute();
  };
  const present = (rows: Awaited<ReturnType<typeof group>>): NotificationData[] => rows.map(presentNotification);
  const [unread, read] = await Promise.all([group(true), group(false)]);
  return { unread: present(unread), read: present(read) };
}

/** Marks every unread notification of the user read (opening the notification centre). */
export async function markAllNotificationsRead(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.updateTable('notifications').set({ read_at: ctx.clock.now().toISOString() }).where('user_id', '=', userId).where('read_at', 'is', null).execute();
}

/** Removes all of the user's notifications ("clear all"). */
export async function deleteAllNotifications(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.deleteFrom('notifications').where('user_id', '=', userId).execute();
}
