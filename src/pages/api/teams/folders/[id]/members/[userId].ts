import { route } from '../../../../../../server/http/endpoint.ts';
import { validate } from '../../../../../../server/http/validate.ts';
import { presentMember } from '../../../../../../server/teams/presenter.ts';
import { PermissionInput } from '../../../../../../server/teams/schemas.ts';
import { changeMemberPermission, removeMember } from '../../../../../../server/teams/service.ts';

/** A member of my team folder: a new permission (PATCH `{ permission }`), or removed (DELETE). */
export const ALL = route({
  PATCH: async ({ ctx, user, params, body }) => {
    const { permission } = validate(PermissionInput, body);
    return { data: presentMember(await changeMemberPermission(ctx, user, params.id ?? '', params.userId ?? '', permission)) };
  },
  DELETE: async ({ ctx, user, params }) => {
    await removeMember(ctx, user, params.id ?? '', params.userId ?? '');
  },
});
