import { RemoveInput } from '../../../../server/files/schemas.ts';
import { removeItems } from '../../../../server/files/service.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';
import { validate } from '../../../../server/http/validate.ts';
import { shareOfRoute } from '../../../../server/sharing/endpoints.ts';

/** An editor moves items of the shared folder to the owner's trash (never deletes for good). */
export const ALL = publicRoute({
  POST: async ({ ctx, astro, body }) => {
    const { actor } = await shareOfRoute(ctx, astro, 'write');
    await removeItems(ctx, actor, validate(RemoveInput, body).items);
  },
});
