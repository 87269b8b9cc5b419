import { route } from '../../../server/http/endpoint.ts';
import { parseProfilePatch, updateAvatar, updateProfile } from '../../../server/users/profile.ts';
import { userResource } from '../../../server/users/resource.ts';

/**
 * Auto-save (`name` + `value`, or fields as keys) and the image update (multipart: `name=avatar`
 * with the file under `avatar`), all sent as POST with `_method=patch`.
 */
export const ALL = route({
  PATCH: async ({ ctx, user, body }) => {
    if (body.name === 'avatar' || body.avatar instanceof File) return userResource(ctx, await updateAvatar(ctx, user, body.avatar));
    return userResource(ctx, await updateProfile(ctx, user, parseProfilePatch(body)));
  },
});
