import { getAppearance, updateAppearance } from '../../../../../server/admin/settings/appearance.ts';
import { route } from '../../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user }) => getAppearance(ctx, user),
  PUT: ({ ctx, user, body }) => updateAppearance(ctx, user, body),
});
