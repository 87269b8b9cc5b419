import { generateAuthenticationOptions, verifyAuthenticationResponse, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Selectable } from 'kysely';
import type { PasskeysTable } from '../../../db/schema.ts';
import type { AppContext } from '../context.ts';
import { validationError } from '../http/errors.ts';
import { findUserById } from '../users/queries.ts';
import type { AuthenticationCredentialInput } from './passkey-schemas.ts';
import { relyingParty, transportsOf, unverified, userHandle } from './passkeys.ts';
import { assertSignInAllowed } from './oidc/only-provider.ts';
import { hit } from './rate-limit.ts';
import { failChallenge, openChallenge, passChallenge, signInNow, type SignedIn } from './second-step.ts';
import { storeChallenge, takeChallenge, WEBAUTHN_TIMEOUT_MS } from './webauthn-challenges.ts';

/**
 * Signing in with a passkey: alone (a discoverable credential proves possession and, verified by
 * the authenticator, the person: both factors in one, so no second step follows), or as the
 * second factor of a sign-in whose first step passed (second-step.ts).
 */
type Passkey = Selectable<PasskeysTable>;

/** Options are free to ask for but each leaves a row: a budget per client address. */
const OPTIONS_PER_IP = { max: 30, windowMs: 15 * 60_000 };

const unknownPasskey = () => validationError({ credential: ['This passkey is not registered here.'] }, 'This passkey is not registered here.');

export async function signInOptions(ctx: AppContext, ip: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  await hit(ctx, `passkey-options:ip:${ip}`, OPTIONS_PER_IP);
  // No allowCredentials: the browser offers the passkeys it has for this site, and nobody learns
  // whether an email has an account.
  const options = await generateAuthenticationOptions({ rpID: relyingParty(ctx).id, allowCredentials: [], userVerification: 'required', timeout: WEBAUTHN_TIMEOUT_MS });
  await storeChallenge(ctx, options.challenge, 'sign-in', null);
  return options;
}

export async function signInWithPasskey(ctx: AppContext, credential: AuthenticationCredentialInput, remember: boolean): Promise<SignedIn> {
  const expectedChallenge = await takeChallenge(ctx, credential.response.clientDataJSON, 'sign-in', null);
  const passkey = await ctx.db.selectFrom('passkeys').selectAll().where('id', '=', credential.id).executeTakeFirst();
  if (!passkey) throw unknownPasskey();
  // The authenticator says whose passkey it is; it must be the account we stored it for.
  const handle = credential.response.userHandle;
  if (handle && handle !== Buffer.from(userHandle(passkey.user_id)).toString('base64url')) throw unverified(ctx, 'user handle mismatch', 'passkey sign-in');
  const user = await findUserById(ctx, passkey.user_id);
  if (!user || user.deletion_started_at) throw unknownPasskey();
  await verifyAssertion(ctx, passkey, credential, expectedChallenge, true);
  // "Only this provider" mode refuses a passkey alone as it refuses a password (oidc/only-provider.ts).
  await assertSignInAllowed(ctx, user, 'passkey');
  return signInNow(ctx, user, remember);
}

/** Options for the second step: only this account's passkeys may answer. */
export async function secondStepOptions(ctx: AppContext, token: string | undefined): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { user } = await openChallenge(ctx, token);
  const passkeys = await ctx.db.selectFrom('passkeys').select(['id', 'transports']).where('user_id', '=', user.id).execute();
  if (passkeys.length === 0) throw validationError({ credential: ['This account has no passkeys.'] }, 'This account has no passkeys.');
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx).id,
    allowCredentials: passkeys.map((p) => ({ id: p.id, transports: transportsOf(p.transports) })),
    // The password was the first factor; the passkey need only be present (a security key without a PIN is fine).
    userVerification: 'preferred',
    timeout: WEBAUTHN_TIMEOUT_MS,
  });
  await storeChallenge(ctx, options.challenge, 'second-step', user.id);
  return options;
}

export async function passSecondStepWithPasskey(ctx: AppContext, token: string | undefined, credential: AuthenticationCredentialInput): Promise<SignedIn> {
  const { challenge, user } = await openChallenge(ctx, token);
  const expectedChallenge = await takeChallenge(ctx, credential.response.clientDataJSON, 'second-step', user.id);
  const passkey = await ctx.db.selectFrom('passkeys').selectAll().where('id', '=', credential.id).where('user_id', '=', user.id).executeTakeFirst();
  if (!passkey) return failChallenge(ctx, challenge, 'credential', 'This passkey does not belong to this account.');
  try {
    await verifyAssertion(ctx, passkey, credential, expectedChallenge, false);
  } catch {
    return failChallenge(ctx, challenge, 'credential', 'The passkey could not be verified.');
  }
  return passChallenge(ctx, challenge, user);
}

/**
 * Checks the signature, origin, RP id and flags, then moves the counter forward. A counter that
 * does not grow (once the authenticator keeps one) means a copy of the key: refused, also when
 * two answers race with the same count (the update only takes the value it read).
 */
async function verifyAssertion(ctx: AppContext, passkey: Passkey, credential: AuthenticationCredentialInput, expectedChallenge: string, requireUserVerification: boolean): Promise<void> {
  const rp = relyingParty(ctx);
  let info: Awaited<ReturnType<typeof verifyAuthenticationResponse>>['authenticationInfo'];
  try {
    const result = await verifyAuthenticationResponse({
      response: credential,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification,
      credential: { id: passkey.id, publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')), counter: passkey.counter, transports: transportsOf(passkey.transports) },
    });
    if (!result.verified) throw new Error('not verified');
    info = result.authenticationInfo;
  } catch (error) {
    throw unverified(ctx, error, 'passkey assertion');
  }
  const result = await ctx.db
    .updateTable('passkeys')
    .set({ counter: info.newCounter, backed_up: info.credentialBackedUp ? 1 : 0, last_used_at: ctx.clock.now().toISOString() })
    .where('id', '=', passkey.id)
    .where('counter', '=', passkey.counter)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0 && info.newCounter > 0) throw unverified(ctx, 'counter raced', 'passkey assertion');
}
