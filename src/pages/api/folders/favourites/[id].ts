import { removeFavourite } from '../../../../server/files/service.ts';
import { route } from '../../../../server/http/endpoint.ts';

/** Takes a folder off the favourites; sent as POST with `_method=delete`. */
export const ALL = route({
  DELETE: async ({ ctx, user, params }) => {
    await removeFavourite(ctx, user, params.id ?? '');
  },
});
