import { FavouritesInput } from '../../../../server/files/schemas.ts';
import { addFavourites } from '../../../../server/files/service.ts';
import { route } from '../../../../server/http/endpoint.ts';
import { validate } from '../../../../server/http/validate.ts';
import { userResource } from '../../../../server/users/resource.ts';

/** Adds folders to the favourites; answers the user resource with the new list. */
export const ALL = route({
  POST: async ({ ctx, user, body }) => {
    await addFavourites(ctx, user, validate(FavouritesInput, body).folders);
    return userResource(ctx, user);
  },
});
