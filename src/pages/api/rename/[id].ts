import { signedInOf } from '../../../server/auth/principal.ts';
import { renameAs } from '../../../server/files/endpoints.ts';
import { route } from '../../../server/http/endpoint.ts';

/** Rename, emoji and colour of one item; sent as POST with `_method=patch`. */
export const ALL = route({
  PATCH: ({ ctx, astro, params, body }) => renameAs(ctx, signedInOf(astro), params.id ?? '', body),
});
