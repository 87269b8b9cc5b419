import { RemoveInput } from '../../../../server/files/schemas.ts';
import { removeItems } from '../../../../server/files/service.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';
import { validate } from '../../../../server/http/validate.ts';
import { openActiveRequest } from '../../../../server/upload-requests/service.ts';

/** The uploader removes what they uploaded (to the owner's trash). */
export const ALL = publicRoute({
  POST: async ({ ctx, params, body }) => {
    const opened = await openActiveRequest(ctx, params.token ?? '');
    await removeItems(ctx, opened.actor, validate(RemoveInput, body).items);
  },
});
