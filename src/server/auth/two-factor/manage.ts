import type { Kysely } from 'kysely';
import type { Database } from '../../../../db/index.ts';
import type { AppContext } from '../../context.ts';
import { AppError, validationError } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { getSettings } from '../../settings/service.ts';
import { hasPassword } from '../identities.ts';
import { verifyPassword } from '../passwords.ts';
import { hit } from '../rate-limit.ts';
import { dropChallenges, SECOND_STEP_PER_ACCOUNT } from '../second-step.ts';
import type { User } from '../sessions.ts';
import { RECOVERY_CODES_LOW, recoveryCodesLeft, replaceRecoveryCodes } from './recovery-codes.ts';
import { ConfirmInput, PasswordProofInput, ProofInput } from './schemas.ts';
import { checkTotp, matchingStep, newTotpKey, sealTotpKey, totpKeyOf, totpUri } from './totp.ts';

/**
 * The account's own two-factor settings: set up (a pending key), confirm with a first code (on,
 * with ten recovery codes), new recovery codes, and off. Codes typed here count against the same
 * per-account budget as sign-in's second step, so a stolen session cannot guess its way to
 * turning the second factor off.
 */
const isOn = (user: User) => user.two_factor_enabled_at !== null;
const alreadyOn = () => new AppError(409, 'Two-factor authentication is on already.');
const notOn = () => new AppError(409, 'Two-factor authentication is not on.');
const WRONG_CODE = 'That code is not right, or was used already. Wait for the next one.';

export async function twoFactorStatus(ctx: AppContext, user: User) {
  const left = isOn(user) ? await recoveryCodesLeft(ctx.db, user.id) : 0;
  return {
    data: {
      type: 'two_factor' as const,
      attributes: {
        enabled: isOn(user),
        enabled_at: user.two_factor_enabled_at,
        pending: !isOn(user) && user.totp_secret !== null,
        recovery_codes_left: left,
        recovery_codes_low: isOn(user) && left < RECOVERY_CODES_LOW,
        // How the account proves itself to turn the second factor off.
        disable_with: hasPassword(user) ? ('password' as const) : ('code' as const),
      },
    },
  };
}

/** A new pending key (replacing an unconfirmed one); shown once, as a QR code and as text. */
export async function startSetup(ctx: AppContext, user: User) {
  if (isOn(user)) throw alreadyOn();
  const key = newTotpKey();
  const updated = await ctx.db
    .updateTable('users')
    .set({ totp_secret: await sealTotpKey(ctx, user.id, key), totp_last_step: null })
    .where('id', '=', user.id)
    .where('two_factor_enabled_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!updated) throw alreadyOn();
  const { app_name } = await getSettings(ctx);
  return { data: { key, uri: totpUri(app_name, user.email, key) } };
}

/** The first code proves the app holds the key: the second factor is on, and the recovery codes are answered, once. */
export async function confirmSetup(ctx: AppContext, user: User, body: unknown) {
  const input = validate(ConfirmInput, body);
  if (isOn(user)) throw alreadyOn();
  const key = await totpKeyOf(ctx, user);
  if (!key) throw new AppError(409, 'Set up two-factor authentication first.');
  await hit(ctx, `second-step:${user.id}`, SECOND_STEP_PER_ACCOUNT);
  const step = matchingStep(key, input.code, ctx.clock.now());
  if (step === null) throw validationError({ code: [WRONG_CODE] }, WRONG_CODE);
  const codes = await ctx.db.transaction().execute(async (tx) => {
    // Only the key this code was checked against: a setup started meanwhile in another tab wins.
    const row = await tx
      .updateTable('users')
      .set({ two_factor_enabled_at: ctx.clock.now().toISOString(), totp_last_step: step })
      .where('id', '=', user.id)
      .where('two_factor_enabled_at', 'is', null)
      .where('totp_secret', '=', user.totp_secret)
      .returning('id')
      .executeTakeFirst();
    return row ? replaceRecoveryCodes(ctx, tx, user.id) : null;
  });
  if (!codes) throw new AppError(409, 'The setup changed meanwhile. Start it again.');
  ctx.logger.info({ userId: user.id }, 'two-factor authentication turned on');
  return { data: { recovery_codes: codes } };
}

/** Ten new recovery codes, the old ones void; proved with the password or a current code. */
export async function regenerateRecoveryCodes(ctx: AppContext, user: User, body: unknown) {
  const input = validate(ProofInput, body);
  if (!isOn(user)) throw notOn();
  await proveOwner(ctx, user, input);
  const codes = await ctx.db.transaction().execute((tx) => replaceRecoveryCodes(ctx, tx, user.id));
  return { data: { recovery_codes: codes } };
}

/**
 * Off: needs the password (an account made through a provider has none, and proves itself with a
 * code). Turning off an unconfirmed setup needs nothing: it protected nothing yet.
 */
export async function disableTwoFactor(ctx: AppContext, user: User, body: unknown): Promise<void> {
  if (!isOn(user)) {
    if (user.totp_secret === null) throw notOn();
    await ctx.db.transaction().execute((tx) => clearTwoFactor(tx, user.id));
    return;
  }
  await proveOwner(ctx, user, hasPassword(user) ? validate(PasswordProofInput, body) : validate(ConfirmInput, body));
  await ctx.db.transaction().execute((tx) => clearTwoFactor(tx, user.id));
  await dropChallenges(ctx, user.id);
  ctx.logger.info({ userId: user.id }, 'two-factor authentication turned off');
}

/** Everything of the second factor goes, in the caller's transaction (also the admin's reset). */
export async function clearTwoFactor(db: Kysely<Database>, userId: string): Promise<void> {
  await db.updateTable('users').set({ two_factor_enabled_at: null, totp_secret: null, totp_last_step: null }).where('id', '=', userId).execute();
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
}

async function proveOwner(ctx: AppContext, user: User, input: { password?: string | undefined; code?: string | undefined }): Promise<void> {
  await hit(ctx, `second-step:${user.id}`, SECOND_STEP_PER_ACCOUNT);
  if (input.password !== undefined) {
    if (!hasPassword(user)) throw validationError({ password: ['Your account has no password. Enter a code from your authenticator app.'] });
    if (!(await verifyPassword(user.password_hash, input.password))) throw validationError({ password: ['The password is incorrect.'] });
    return;
  }
  if (!(await checkTotp(ctx, user, input.code ?? ''))) throw validationError({ code: [WRONG_CODE] }, WRONG_CODE);
}
