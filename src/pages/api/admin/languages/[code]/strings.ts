import { listStrings, putStrings } from '../../../../../server/admin/language-strings.ts';
import { route } from '../../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user, params, query }) => listStrings(ctx, user, params.code, query),
  PUT: ({ ctx, user, params, body }) => putStrings(ctx, user, params.code, body),
});
