import { getEmailSettings, updateEmailSettings } from '../../../../../server/admin/settings/email.ts';
import { route } from '../../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user }) => getEmailSettings(ctx, user),
  PUT: ({ ctx, user, body }) => updateEmailSettings(ctx, user, body),
});
