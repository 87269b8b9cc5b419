import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../../../db/index.ts';
import { forgetDiscovery, isLoopbackHost } from '../../auth/oidc/client.ts';
import { ISSUER_ID, type IssuerRow, sealClientSecret } from '../../auth/oidc/issuers.ts';
import type { User } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import type { Body } from '../../http/endpoint.ts';
import { notFound, validationError } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { recordAudit } from '../audit.ts';
import { requireAdmin } from '../guard.ts';
import { changedFields } from './changes.ts';

/**
 * The admin's OpenID Connect issuers (the sign-in tab's "OpenID Connect" section) and the "only
 * this provider" mode (auth/oidc/only-provider.ts). Client secrets are write-only: answers say only
 * whether one is set; a change without one keeps it, '' or null clears it.
 */
const PRINTABLE = /^[\x21-\x7e]*$/;

/** An issuer identifier: https, or http for an identity provider on this machine; no credentials, query or fragment. */
const issuerUrl = z
  .string({ error: 'The issuer URL must be text.' })
  .trim()
  .min(1, 'Enter the issuer URL.')
  .max(2048, 'The issuer URL may not be greater than 2048 characters.')
  .superRefine((value, issue) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return issue.addIssue({ code: 'custom', message: 'The issuer URL must be a full address starting with https://.' });
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return issue.addIssue({ code: 'custom', message: 'The issuer URL must start with https://.' });
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      return issue.addIssue({ code: 'custom', message: 'The issuer URL must use https://; plain http:// is allowed only for localhost.' });
    }
    if (url.username || url.password) return issue.addIssue({ code: 'custom', message: 'The issuer URL may not contain a user name or password.' });
    if (url.search || url.hash) issue.addIssue({ code: 'custom', message: 'The issuer URL may not contain a query or fragment.' });
  });
const label = z.string({ error: 'The button label must be text.' }).trim().min(1, 'Enter the button label.').max(60, 'The button label may not be greater than 60 characters.');
const clientId = z
  .string({ error: 'The client id must be text.' })
  .trim()
  .min(1, 'Enter the client id.')
  .max(255, 'The client id may not be greater than 255 characters.')
  .regex(PRINTABLE, 'The client id may contain only letters, digits and punctuation, without spaces.');
const clientSecret = z
  .string({ error: 'The client secret must be text, or null to remove it.' })
  .trim()
  .max(512, 'The client secret may not be greater than 512 characters.')
  .regex(PRINTABLE, 'The client secret may contain only letters, digits and punctuation, without spaces.')
  .nullable()
  .optional();
const enabled = z.boolean({ error: 'The enabled field must be true or false.' }).optional();

const CreateInput = z.strictObject({
  id: z
    .string({ error: 'The id must be text.' })
    .trim()
    .regex(ISSUER_ID, 'The id may contain only lowercase letters, digits and hyphens (1 to 32), starting and ending with a letter or digit.'),
  label,
  issuer_url: issuerUrl,
  client_id: clientId,
  client_secret: clientSecret,
  enabled,
});
const UpdateInput = z.strictObject({ label: label.optional(), issuer_url: issuerUrl.optional(), client_id: clientId.optional(), client_secret: clientSecret, enabled });
const OnlyInput = z.strictObject({ only_issuer: z.string({ error: 'Choose an issuer, or null to allow every way in.' }).nullable() });

function present(row: IssuerRow) {
  return {
    id: row.id,
    label: row.label,
    issuer_url: row.issuer_url,
    client_id: row.client_id,
    client_secret: { set: row.client_secret !== '' },
    enabled: Number(row.enabled) === 1,
    sign_in_only: Number(row.sign_in_only) === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
export type OidcIssuer = ReturnType<typeof present>;

/** What the audit log keeps: every field an admin sets; a secret as set/changed, redacted by its name. */
const auditView = (row: IssuerRow, secretGiven = false) => ({
  label: row.label,
  issuer_url: row.issuer_url,
  client_id: row.client_id,
  client_secret: secretGiven ? 'changed' : row.client_secret ? 'set' : '',
  enabled: Number(row.enabled) === 1,
  sign_in_only: Number(row.sign_in_only) === 1,
});

const issuerNotFound = () => notFound('The OpenID Connect issuer was not found.');
const findIssuer = (db: Kysely<Database>, id: string) => db.selectFrom('oidc_issuers').selectAll().where('id', '=', id).executeTakeFirst();

/** Turning an issuer on needs its client secret: refused (422, nothing saved) otherwise. */
function assertUsable(row: IssuerRow): void {
  if (Number(row.enabled) === 1 && !row.client_secret) throw validationError({ client_secret: ['Enter the client secret to turn this issuer on.'] });
}

export async function listIssuers(ctx: AppContext, user: User) {
  requireAdmin(user);
  const rows = await ctx.db.selectFrom('oidc_issuers').selectAll().orderBy('label').orderBy('id').execute();
  return { data: rows.map(present), meta: { only_issuer: rows.find((r) => Number(r.sign_in_only) === 1)?.id ?? null } };
}

export async function createIssuer(ctx: AppContext, user: User, body: Body) {
  requireAdmin(user);
  const input = validate(CreateInput, body);
  const now = ctx.clock.now().toISOString();
  const row: IssuerRow = {
    id: input.id,
    label: input.label,
    issuer_url: input.issuer_url,
    client_id: input.client_id,
    client_secret: input.client_secret ? await sealClientSecret(ctx, input.id, input.client_secret) : '',
    enabled: input.enabled ? 1 : 0,
    sign_in_only: 0,
    created_at: now,
    updated_at: now,
  };
  assertUsable(row);
  const taken = () => validationError({ id: ['An issuer with this id exists already.'] });
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (await findIssuer(trx, row.id)) throw taken();
      await trx.insertInto('oidc_issuers').values(row).execute();
      await recordAudit(ctx, trx, user, { action: 'oidc_issuer.create', target_type: 'oidc_issuer', target_id: row.id, target_label: row.label, after: auditView(row, !!input.client_secret) });
    });
  } catch (error) {
    // Two admins adding the same id at once: the loser hears what the check above would have said.
    if (!(error as { status?: number }).status && (await findIssuer(ctx.db, row.id))) throw taken();
    throw error;
  }
  return { data: present(row) };
}

export async function updateIssuer(ctx: AppContext, user: User, id: string | undefined, body: Body) {
  requireAdmin(user);
  if (!id || !ISSUER_ID.test(id)) throw issuerNotFound();
  const input = validate(UpdateInput, body);
  const sealed = input.client_secret ? await sealClientSecret(ctx, id, input.client_secret) : input.client_secret === undefined ? undefined : '';
  const after = await ctx.db.transaction().execute(async (trx) => {
    const before = await findIssuer(trx, id);
    if (!before) throw issuerNotFound();
    const next: IssuerRow = {
      ...before,
      label: input.label ?? before.label,
      issuer_url: input.issuer_url ?? before.issuer_url,
      client_id: input.client_id ?? before.client_id,
      client_secret: sealed ?? before.client_secret,
      enabled: input.enabled === undefined ? Number(before.enabled) : input.enabled ? 1 : 0,
      updated_at: ctx.clock.now().toISOString(),
    };
    // A disabled issuer cannot be the only way in: the mode goes with it.
    if (next.enabled === 0) next.sign_in_only = 0;
    assertUsable(next);
    await trx.updateTable('oidc_issuers').set(next).where('id', '=', id).execute();
    const changes = changedFields(auditView(before), auditView(next, !!input.client_secret));
    if (changes) await recordAudit(ctx, trx, user, { action: 'oidc_issuer.update', target_type: 'oidc_issuer', target_id: id, target_label: next.label, ...changes });
    forgetDiscovery(before.issuer_url);
    return next;
  });
  return { data: present(after) };
}

export async function deleteIssuer(ctx: AppContext, user: User, id: string | undefined): Promise<void> {
  requireAdmin(user);
  if (!id || !ISSUER_ID.test(id)) throw issuerNotFound();
  await ctx.db.transaction().execute(async (trx) => {
    const before = await findIssuer(trx, id);
    if (!before) throw issuerNotFound();
    await trx.deleteFrom('oidc_issuers').where('id', '=', id).execute();
    await recordAudit(ctx, trx, user, { action: 'oidc_issuer.delete', target_type: 'oidc_issuer', target_id: id, target_label: before.label, before: auditView(before) });
    forgetDiscovery(before.issuer_url);
  });
}

/**
 * Sets "only this provider" to an enabled issuer, or off (null). Admins keep password sign-in
 * either way (auth/oidc/only-provider.ts says why).
 */
export async function setOnlyIssuer(ctx: AppContext, user: User, body: Body) {
  requireAdmin(user);
  const { only_issuer: onlyId } = validate(OnlyInput, body);
  await ctx.db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom('oidc_issuers').select(['id', 'label']).where('sign_in_only', '=', 1).executeTakeFirst();
    let target: IssuerRow | undefined;
    if (onlyId !== null) {
      target = ISSUER_ID.test(onlyId) ? await findIssuer(trx, onlyId) : undefined;
      if (!target) throw validationError({ only_issuer: ['Choose one of the configured issuers.'] });
      if (Number(target.enabled) !== 1) throw validationError({ only_issuer: ['Turn this issuer on before making it the only way to sign in.'] });
    }
    if ((current?.id ?? null) === onlyId) return;
    await trx.updateTable('oidc_issuers').set({ sign_in_only: 0 }).where('sign_in_only', '=', 1).execute();
    if (onlyId !== null) await trx.updateTable('oidc_issuers').set({ sign_in_only: 1 }).where('id', '=', onlyId).execute();
    await recordAudit(ctx, trx, user, {
      action: 'setting.update',
      target_type: 'setting',
      target_id: 'oidc-only-provider',
      target_label: 'Sign-in: only this provider',
      before: { only_issuer: current?.id ?? null },
      after: { only_issuer: onlyId },
    });
  });
  return listIssuers(ctx, user);
}
