import { signedInOf } from '../../server/auth/principal.ts';
import { createFolderAs } from '../../server/files/endpoints.ts';
import { route } from '../../server/http/endpoint.ts';

/** Creates a folder (`parent_id` empty: home); the body is shared with the share editor's and the upload request's. */
export const ALL = route({
  POST: ({ ctx, astro, body }) => createFolderAs(ctx, signedInOf(astro), body),
});
