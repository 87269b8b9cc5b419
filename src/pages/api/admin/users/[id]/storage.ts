import { getUserStorage, updateUserStorage } from '../../../../../server/admin/users/storage.ts';
import { route } from '../../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user, params }) => getUserStorage(ctx, user, params.id),
  PATCH: ({ ctx, user, params, body }) => updateUserStorage(ctx, user, params.id, body),
});
