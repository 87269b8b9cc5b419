import { deleteLanguage, updateLanguage } from '../../../../server/admin/languages.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  PATCH: ({ ctx, user, params, body }) => updateLanguage(ctx, user, params.code, body),
  DELETE: ({ ctx, user, params }) => deleteLanguage(ctx, user, params.code),
});
