import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';

/** SPEC §3 notification action: a link to a named route with an id, or an invitation. */
export interface NotificationAction {
  type: 'route' | 'invitation';
  params: { id: string | null; route: string; button: string };
}

/** Stores a notification for the user (the notification centre reads them in a later issue). */
export async function createNotification(
  ctx: AppContext,
  input: { userId: string; category: string; title: string; description: string; action: NotificationAction | null },
): Promise<string> {
  const id = randomUUID();
  await ctx.db
    .insertInto('notifications')
    .values({ id, user_id: input.userId, category: input.category, title: input.title, description: input.description, action: input.action ? JSON.stringify(input.action) : null, read_at: null, created_at: ctx.clock.now().toISOString() })
    .execute();
  return id;
}
