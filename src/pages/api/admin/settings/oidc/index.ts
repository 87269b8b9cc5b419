import { createIssuer, listIssuers, setOnlyIssuer } from '../../../../../server/admin/settings/oidc.ts';
import { json, route } from '../../../../../server/http/endpoint.ts';

export const ALL = route({
  GET: ({ ctx, user }) => listIssuers(ctx, user),
  POST: async ({ ctx, user, body }) => json(await createIssuer(ctx, user, body), 201),
  /** The "only this provider" mode: `{ only_issuer: id | null }`. */
  PUT: ({ ctx, user, body }) => setOnlyIssuer(ctx, user, body),
});
