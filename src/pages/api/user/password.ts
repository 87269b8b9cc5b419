import { ChangePasswordInput } from '../../../server/auth/schemas.ts';
import { changePassword } from '../../../server/auth/service.ts';
import { route } from '../../../server/http/endpoint.ts';
import { validate } from '../../../server/http/validate.ts';

/** Changes the password and signs out every other session of this user. */
export const ALL = route({
  PATCH: async ({ ctx, user, body, astro }) => {
    await changePassword(ctx, user, validate(ChangePasswordInput, body), astro.locals.session?.id ?? null);
    return { message: 'Your password was changed.' };
  },
});
