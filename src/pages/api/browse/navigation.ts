import { signedInOf } from '../../../server/auth/principal.ts';
import { navigationAs } from '../../../server/files/endpoints.ts';
import { route } from '../../../server/http/endpoint.ts';

/** The folder tree for the navigation panel: `{ data: [{ id, name, color, emoji, parent_id, folders: [...] }] }`. */
export const ALL = route({
  GET: ({ ctx, astro, query }) => navigationAs(ctx, signedInOf(astro), query),
});
