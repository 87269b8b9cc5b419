import type { Selectable } from 'kysely';
import type { OidcIssuersTable } from '../../../../db/schema.ts';
import type { AppContext } from '../../context.ts';
import { openSecret, sealSecret } from '../../settings/secrets.ts';

/**
 * The OpenID Connect issuers an admin configured (admin/settings/oidc.ts edits them). An issuer's
 * id names its routes (/api/oidc/<id>/…) and the identities linked through it ('oidc:<id>').
 */
export type IssuerRow = Selectable<OidcIssuersTable>;

export const ISSUER_ID = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

/** The provider name of identities linked through this issuer (auth/identities.ts). */
export const providerOf = (issuerId: string) => `oidc:${issuerId}`;

const secretPurpose = (issuerId: string) => `oidc-issuer:${issuerId}:client_secret`;

export const sealClientSecret = (ctx: AppContext, issuerId: string, plain: string) => sealSecret(ctx, secretPurpose(issuerId), plain);

/** The plain client secret; '' when none is set or it no longer decrypts (the instance secret changed). */
export async function clientSecretOf(ctx: AppContext, issuer: IssuerRow): Promise<string> {
  if (!issuer.client_secret) return '';
  const plain = await openSecret(ctx, secretPurpose(issuer.id), issuer.client_secret);
  if (plain === null) ctx.logger.error({ issuer: issuer.id }, 'an OpenID Connect client secret could not be decrypted: the instance secret changed; enter it again in the admin area');
  return plain ?? '';
}

/** An enabled issuer by id, for the sign-in routes; undefined for an unknown or disabled one. */
export async function enabledIssuer(ctx: AppContext, id: string | undefined): Promise<IssuerRow | undefined> {
  if (!id || !ISSUER_ID.test(id)) return undefined;
  return ctx.db.selectFrom('oidc_issuers').selectAll().where('id', '=', id).where('enabled', '=', 1).executeTakeFirst();
}

export interface SignInButton {
  id: string;
  label: string;
}

/**
 * What the sign-in and sign-up pages offer: a button per enabled issuer, and the issuer of "only
 * this provider" mode if it is on (it counts only while that issuer is enabled).
 */
export async function signInButtons(ctx: AppContext): Promise<{ issuers: SignInButton[]; only: SignInButton | null }> {
  const rows = await ctx.db.selectFrom('oidc_issuers').select(['id', 'label', 'sign_in_only']).where('enabled', '=', 1).orderBy('label').orderBy('id').execute();
  const only = rows.find((row) => Number(row.sign_in_only) === 1);
  return { issuers: rows.map(({ id, label }) => ({ id, label })), only: only ? { id: only.id, label: only.label } : null };
}
