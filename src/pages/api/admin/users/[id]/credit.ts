import { giftCredit } from '../../../../../server/billing/gift.ts';
import { json, route } from '../../../../../server/http/endpoint.ts';

export const ALL = route({
  POST: async ({ ctx, user, params, body }) => json(await giftCredit(ctx, user, params.id, body), 201),
});
