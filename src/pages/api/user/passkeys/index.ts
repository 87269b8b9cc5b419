import { RegisterPasskeyInput } from '../../../../server/auth/passkey-schemas.ts';
import { listPasskeys, registerPasskey } from '../../../../server/auth/passkeys.ts';
import { requireSessionAuth } from '../../../../server/auth/session-only.ts';
import { json, route } from '../../../../server/http/endpoint.ts';
import { validate } from '../../../../server/http/validate.ts';

export const ALL = route({
  GET: async ({ ctx, user }) => ({ data: await listPasskeys(ctx, user.id) }),
  POST: async ({ ctx, user, body, astro }) => {
    requireSessionAuth(astro.locals, 'Adding a passkey');
    const input = validate(RegisterPasskeyInput, body);
    return json({ data: await registerPasskey(ctx, user, input.name, input.credential) }, 201);
  },
});
