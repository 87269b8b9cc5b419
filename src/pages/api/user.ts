import { route } from '../../server/http/endpoint.ts';
import { userResource } from '../../server/users/resource.ts';

export const ALL = route({
  GET: ({ ctx, user }) => userResource(ctx, user),
});
