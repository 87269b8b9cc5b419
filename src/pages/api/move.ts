import { signedInOf } from '../../server/auth/principal.ts';
import { moveAs } from '../../server/files/endpoints.ts';
import { route } from '../../server/http/endpoint.ts';

/** Moves items into a folder (`to_id` null, '' or 'all': home); clashing names become `name (n)`. */
export const ALL = route({
  POST: ({ ctx, astro, body }) => moveAs(ctx, signedInOf(astro), body),
});
