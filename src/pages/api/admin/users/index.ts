import { createUserAsAdmin } from '../../../../server/admin/users/create.ts';
import { listUsers } from '../../../../server/admin/users/list.ts';
import { json, route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user, query }) => listUsers(ctx, user, query),
  POST: async ({ ctx, user, body }) => json(await createUserAsAdmin(ctx, user, body), 201),
});
