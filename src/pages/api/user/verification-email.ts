import { resendVerificationEmail } from '../../../server/auth/service.ts';
import { route } from '../../../server/http/endpoint.ts';

/** Sends the signed-in user a new email verification link (the shell's "Resend verification email"). */
export const ALL = route({
  POST: async ({ ctx, user }) => {
    await resendVerificationEmail(ctx, user);
    return { message: `A new verification link is on its way to ${user.email}.` };
  },
});
