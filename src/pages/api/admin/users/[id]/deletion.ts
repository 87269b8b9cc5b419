import { startUserDeletion, userDeletionStatus } from '../../../../../server/admin/users/deletion.ts';
import { json, route } from '../../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user, params }) => userDeletionStatus(ctx, user, params.id),
  // 202: the account is marked and signed out now; its files go in the background (GET follows it).
  POST: async ({ ctx, user, params, body }) => json(await startUserDeletion(ctx, user, params.id, body), 202),
});
