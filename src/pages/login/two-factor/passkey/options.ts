import { challengeToken } from '../../../../server/auth/cookies.ts';
import { secondStepOptions } from '../../../../server/auth/passkey-sign-in.ts';
import { publicRoute } from '../../../../server/http/endpoint.ts';

/** Options for answering a sign-in's second step with a passkey: the challenge as JSON `challenge`, or the form's cookie. */
export const ALL = publicRoute({
  POST: async ({ ctx, body, astro }) => ({ data: await secondStepOptions(ctx, challengeToken(astro.cookies, body)) }),
});
