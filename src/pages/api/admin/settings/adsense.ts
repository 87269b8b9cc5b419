import { getAdsenseSettings, putAdsenseSettings } from '../../../../server/admin/settings/adsense.ts';
import { route } from '../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user }) => getAdsenseSettings(ctx, user),
  PUT: ({ ctx, user, body }) => putAdsenseSettings(ctx, user, body),
});
