import { getUserForAdmin, updateUserAsAdmin } from '../../../../server/admin/users/update.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user, params }) => getUserForAdmin(ctx, user, params.id),
  PATCH: ({ ctx, user, params, body }) => updateUserAsAdmin(ctx, user, params.id, body),
});
