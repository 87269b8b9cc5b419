import { RenamePasskeyInput } from '../../../../server/auth/passkey-schemas.ts';
import { removePasskey, renamePasskey } from '../../../../server/auth/passkeys.ts';
import { requireSessionAuth } from '../../../../server/auth/session-only.ts';
import { route } from '../../../../server/http/endpoint.ts';
import { validate } from '../../../../server/http/validate.ts';

export const ALL = route({
  PATCH: async ({ ctx, user, params, body, astro }) => {
    requireSessionAuth(astro.locals, 'Renaming a passkey');
    return { data: await renamePasskey(ctx, user.id, params.id ?? '', validate(RenamePasskeyInput, body).name) };
  },
  DELETE: async ({ ctx, user, params, astro }) => {
    requireSessionAuth(astro.locals, 'Removing a passkey');
    await removePasskey(ctx, user, params.id ?? '');
  },
});
