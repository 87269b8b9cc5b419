import { json, route } from '../../../server/http/endpoint.ts';
import { validate } from '../../../server/http/validate.ts';
import { shareData } from '../../../server/sharing/presenter.ts';
import { CreateShareInput, UpdateShareInput } from '../../../server/sharing/schemas.ts';
import { createShare, updateShare } from '../../../server/sharing/service.ts';

/**
 * POST /api/share/{item id}: a link for the item (type, permission, password, expiration in
 * hours, emails); 201 with the share resource. POST /api/share/{token} with `_method=patch`
 * changes its permission, password (null removes it), expiration or sends it to more emails.
 */
export const ALL = route({
  POST: async ({ ctx, user, params, body }) => json({ data: shareData(ctx, await createShare(ctx, user, params.id ?? '', validate(CreateShareInput, body))) }, 201),
  PATCH: async ({ ctx, user, params, body }) => ({ data: shareData(ctx, await updateShare(ctx, user, params.id ?? '', validate(UpdateShareInput, body))) }),
});
