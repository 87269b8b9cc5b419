import { route } from '../../../../server/http/endpoint.ts';
import { markAllNotificationsRead } from '../../../../server/notifications/service.ts';

/** SPEC §7 readAllNotifications: opening the notification centre marks everything read. */
export const ALL = route({
  POST: async ({ ctx, user }) => {
    await markAllNotificationsRead(ctx, user.id);
  },
});
