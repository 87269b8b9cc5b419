import { changeUserPassword } from '../../../../../server/admin/users/password.ts';
import { route } from '../../../../../server/http/endpoint.ts';

export const ALL = route({
  POST: ({ ctx, user, params, body, astro }) => changeUserPassword(ctx, user, astro.locals.session, params.id, body),
});
