import { route } from '../../../../server/http/endpoint.ts';
import { deleteAllNotifications } from '../../../../server/notifications/service.ts';

/** SPEC §7 deleteAllNotifications: "clear all" in the notification centre. */
export const ALL = route({
  DELETE: async ({ ctx, user }) => {
    await deleteAllNotifications(ctx, user.id);
  },
});
