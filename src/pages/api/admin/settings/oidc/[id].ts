import { deleteIssuer, updateIssuer } from '../../../../../server/admin/settings/oidc.ts';
import { route } from '../../../../../server/http/endpoint.ts';

export const ALL = route({
  PATCH: ({ ctx, user, params, body }) => updateIssuer(ctx, user, params.id, body),
  DELETE: ({ ctx, user, params }) => deleteIssuer(ctx, user, params.id),
});
