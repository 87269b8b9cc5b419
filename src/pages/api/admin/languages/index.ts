import { createLanguage, listLanguagesForAdmin } from '../../../../server/admin/languages.ts';
import { json, route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user, query }) => listLanguagesForAdmin(ctx, user, query),
  POST: async ({ ctx, user, body }) => json(await createLanguage(ctx, user, body), 201),
});
