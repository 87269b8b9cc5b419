import { route } from '../../../server/http/endpoint.ts';
import { validate } from '../../../server/http/validate.ts';
import { RevokeInput } from '../../../server/sharing/schemas.ts';
import { revokeShares } from '../../../server/sharing/service.ts';

/** POST with `_method=delete` and `tokens`: the links stop working at once. */
export const ALL = route({
  DELETE: async ({ ctx, user, body }) => {
    await revokeShares(ctx, user, validate(RevokeInput, body).tokens);
  },
});
