import { generateRegistrationOptions, verifyRegistrationResponse, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { AppError, notFound, validationError } from '../http/errors.ts';
import { getSettings } from '../settings/service.ts';
import { hasPassword } from './identities.ts';
import type { RegistrationCredentialInput } from './passkey-schemas.ts';
import type { SecondFactor } from './second-step.ts';
import type { User } from './sessions.ts';
import { storeChallenge, takeChallenge, WEBAUTHN_TIMEOUT_MS } from './webauthn-challenges.ts';

/**
 * Passkeys: WebAuthn credentials a user registers from settings, then signs in with alone
 * (auth/passkey-sign-in.ts) or answers the second step with. The relying party is this instance:
 * its id is APP_URL's hostname and an answer must come from APP_URL's origin.
 */
export interface PasskeyView {
  id: string;
  name: string;
  device_type: string;
  backed_up: boolean;
  created_at: string;
  last_used_at: string | null;
}

/**
 * EdDSA, ES256 and RS256 (COSE ids). The library would add ML-DSA-44 where the Node runtime supports
 * it, but then a passkey made on one app node could not sign in on a node whose runtime does not.
 */
export const ALGORITHMS = [-8, -7, -257];

export function relyingParty(ctx: AppContext): { id: string; origin: string } {
  return { id: ctx.config.appUrl.hostname, origin: ctx.config.appUrl.origin };
}

/** The WebAuthn user handle of an account: its id, which says nothing about the person. */
export function userHandle(userId: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(userId);
}

/** Every refusal of an answer the library rejects says the same; the reason goes to the log only. */
export function unverified(ctx: AppContext, error: unknown, what: string): AppError {
  ctx.logger.info({ reason: error instanceof Error ? error.message : String(error) }, `${what} refused`);
  return validationError({ credential: ['The passkey could not be verified.'] }, 'The passkey could not be verified.');
}

export async function listPasskeys(ctx: AppContext, userId: string): Promise<PasskeyView[]> {
  const rows = await ctx.db
    .selectFrom('passkeys')
    .select(['id', 'name', 'device_type', 'backed_up', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'asc')
    .execute();
  return rows.map((row) => ({ ...row, backed_up: row.backed_up === 1 }));
}

export async function registrationOptions(ctx: AppContext, user: User): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty(ctx);
  const existing = await ctx.db.selectFrom('passkeys').select(['id', 'transports']).where('user_id', '=', user.id).execute();
  const options = await generateRegistrationOptions({
    rpName: (await getSettings(ctx)).app_name,
    rpID: rp.id,
    userName: user.email,
    userID: userHandle(user.id),
    userDisplayName: user.name,
    timeout: WEBAUTHN_TIMEOUT_MS,
    attestationType: 'none',
    supportedAlgorithmIDs: ALGORITHMS,
    // The same authenticator twice would only be a second name for one key.
    excludeCredentials: existing.map((row) => ({ id: row.id, transports: transportsOf(row.transports) })),
    // Discoverable and user-verifying: every passkey can sign in alone, with no email typed first.
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
  });
  await storeChallenge(ctx, options.challenge, 'register', user.id);
  return options;
}

export async function registerPasskey(ctx: AppContext, user: User, name: string, credential: RegistrationCredentialInput): Promise<PasskeyView> {
  const expectedChallenge = await takeChallenge(ctx, credential.response.clientDataJSON, 'register', user.id);
  const rp = relyingParty(ctx);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({ response: credential, expectedChallenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true, supportedAlgorithmIDs: ALGORITHMS });
  } catch (error) {
    throw unverified(ctx, error, 'passkey registration');
  }
  if (!verified.verified) throw unverified(ctx, 'not verified', 'passkey registration');
  const info = verified.registrationInfo;
  const now = ctx.clock.now().toISOString();
  const row = {
    id: info.credential.id,
    user_id: user.id,
    name,
    public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: JSON.stringify(credential.response.transports ?? []),
    device_type: info.credentialDeviceType,
    backed_up: info.credentialBackedUp ? 1 : 0,
    created_at: now,
    last_used_at: null,
  };
  const taken = () => new AppError(409, 'This passkey is registered already.');
  if (await ctx.db.selectFrom('passkeys').select('id').where('id', '=', row.id).executeTakeFirst()) throw taken();
  try {
    await ctx.db.insertInto('passkeys').values(row).execute();
  } catch (error) {
    // The same credential registered in parallel: whoever won has it.
    if (await ctx.db.selectFrom('passkeys').select('id').where('id', '=', row.id).executeTakeFirst()) throw taken();
    throw error;
  }
  return { id: row.id, name, device_type: row.device_type, backed_up: row.backed_up === 1, created_at: now, last_used_at: null };
}

export async function renamePasskey(ctx: AppContext, userId: string, id: string, name: string): Promise<PasskeyView> {
  const result = await ctx.db.updateTable('passkeys').set({ name }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound('Passkey not found.');
  const view = (await listPasskeys(ctx, userId)).find((p) => p.id === id);
  if (!view) throw notFound('Passkey not found.');
  return view;
}

/**
 * Removes a passkey, unless it is the account's last way in: no password, no linked provider,
 * and no other passkey. Checked and deleted in one transaction, the account locked on PostgreSQL
 * (SQLite runs one writer at a time), so two removals at once cannot both take the last two.
 */
export async function removePasskey(ctx: AppContext, user: User, id: string): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    if (ctx.config.database.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`sign-in-ways:${user.id}`}))`.execute(tx);
    const result = await tx.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', user.id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound('Passkey not found.');
    if (hasPassword(user)) return;
    const left = await tx.selectFrom('passkeys').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const identities = await tx.selectFrom('user_identities').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    if (Number(left.n) === 0 && Number(identities.n) === 0) {
      throw new AppError(409, 'This passkey is the last way to sign in to your account. Add another passkey or link a provider first.', { code: 'last_sign_in_method' });
    }
  });
}

/** The second factor source (second-step.ts): an account with a passkey can answer with it. */
export async function passkeyFactors(ctx: AppContext, user: User): Promise<SecondFactor[]> {
  const one = await ctx.db.selectFrom('passkeys').select('id').where('user_id', '=', user.id).limit(1).executeTakeFirst();
  return one ? ['passkey'] : [];
}

export function transportsOf(json: string): string[] {
  try {
    const list: unknown = JSON.parse(json);
    return Array.isArray(list) ? list.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}
