import { RemoveInput } from '../../server/files/schemas.ts';
import { removeItems } from '../../server/files/service.ts';
import { route } from '../../server/http/endpoint.ts';
import { validate } from '../../server/http/validate.ts';

/** Moves items to the trash, or with `force_delete` removes them and their bytes for good. */
export const ALL = route({
  POST: async ({ ctx, user, body }) => {
    await removeItems(ctx, user, validate(RemoveInput, body).items);
  },
});
