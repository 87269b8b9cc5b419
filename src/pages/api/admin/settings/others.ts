import { getOtherSettings, updateOtherSettings } from '../../../../server/admin/settings/others.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user }) => getOtherSettings(ctx, user),
  PUT: ({ ctx, user, body }) => updateOtherSettings(ctx, user, body),
});
