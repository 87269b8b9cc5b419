import { z } from 'zod';
import { DIGITS } from './totp.ts';
import { normaliseRecoveryCode, RECOVERY_CODE } from './recovery-codes.ts';

const CODE_MESSAGE = `Enter the ${DIGITS}-digit code from your authenticator app.`;

/** A TOTP code as people type it: spaces are allowed ("123 456"). */
export const totpCodeField = z
  .string({ error: CODE_MESSAGE })
  .max(20, CODE_MESSAGE)
  .transform((v) => v.replace(/\s/g, ''))
  .pipe(z.string().regex(new RegExp(`^\\d{${DIGITS}}$`), CODE_MESSAGE));

const RECOVERY_MESSAGE = 'A recovery code has 12 letters and digits, like abcd-efgh-2345.';
export const recoveryCodeField = z
  .string({ error: RECOVERY_MESSAGE })
  .max(40, RECOVERY_MESSAGE)
  .transform(normaliseRecoveryCode)
  .pipe(z.string().regex(RECOVERY_CODE, RECOVERY_MESSAGE));

const passwordField = z.string({ error: 'The password field is required.' }).min(1, 'The password field is required.').max(128, 'The password may not be greater than 128 characters.');

/** An empty form field is as good as a missing one. */
const optional = <T extends z.ZodType>(field: T) => z.preprocess((v) => (v === '' || v === null ? undefined : v), field.optional());

export const ConfirmInput = z.object({ code: totpCodeField });
export const PasswordProofInput = z.object({ password: passwordField });

/** Proof that it is the account's owner: the password, or a current code. */
export const ProofInput = z
  .object({ password: optional(passwordField), code: optional(totpCodeField) })
  .refine((v) => v.password !== undefined || v.code !== undefined, { message: 'Enter your password or a code from your authenticator app.', path: ['password'] });

/** The second step of a sign-in: one code from the app, or one recovery code. */
export const SecondStepInput = z
  .object({
    code: optional(totpCodeField),
    recovery_code: optional(recoveryCodeField),
    challenge: optional(z.string({ error: 'The challenge must be a string.' }).max(100, 'The challenge may not be greater than 100 characters.')),
  })
  .superRefine((v, c) => {
    if (v.code === undefined && v.recovery_code === undefined) c.addIssue({ code: 'custom', message: CODE_MESSAGE, path: ['code'] });
    if (v.code !== undefined && v.recovery_code !== undefined) c.addIssue({ code: 'custom', message: 'Send a code or a recovery code, not both.', path: ['code'] });
  });
