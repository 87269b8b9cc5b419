import { signedInOf } from '../../server/auth/principal.ts';
import { removeAs } from '../../server/files/endpoints.ts';
import { route } from '../../server/http/endpoint.ts';

/** Moves items to the trash, or with `force_delete` removes them and their bytes for good. */
export const ALL = route({
  POST: ({ ctx, astro, body }) => removeAs(ctx, signedInOf(astro), body),
});
