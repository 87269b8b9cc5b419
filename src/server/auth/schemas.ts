import { z } from 'zod';
import { UNSAFE_PERSON_NAME } from '../files/names.ts';
import { botCheckToken } from './bot-check.ts';
import { weakPasswordMessage } from './strength.ts';

export const emailField = z
  .string({ error: 'The email field is required.' })
  .trim()
  .toLowerCase()
  .min(1, 'The email field is required.')
  .max(255, 'The email may not be greater than 255 characters.')
  .pipe(z.email('The email must be a valid email address.'));

export const passwordField = z
  .string({ error: 'The password field is required.' })
  .min(8, 'The password must be at least 8 characters.')
  .max(128, 'The password may not be greater than 128 characters.');

export const nameField = z
  .string({ error: 'The name field is required.' })
  .trim()
  .min(1, 'The name field is required.')
  .max(120, 'The name may not be greater than 120 characters.')
  .refine((v) => !UNSAFE_PERSON_NAME.test(v), 'The name may not contain control or text-direction characters.');

const confirmed = <T extends { password: string; password_confirmation: string }>(v: T) => v.password === v.password_confirmation;
const confirmation = { message: 'The password confirmation does not match.', path: ['password_confirmation'] };

/** Checkbox values as browsers and JSON clients send them. */
const flag = z
  .union([z.boolean(), z.enum(['on', 'true', '1', 'false', '0', ''])])
  .optional()
  .transform((v) => v === true || v === 'on' || v === 'true' || v === '1');

/** Refuses a password the strength estimator finds easy to guess, given what else the form tells about the person. */
export function guessable(kind: 'user' | 'admin', related: (v: Record<string, unknown>) => string[]) {
  return (v: { password: string } & Record<string, unknown>, c: z.RefinementCtx) => {
    const message = weakPasswordMessage(v.password, related(v).filter(Boolean), kind);
    if (message) c.addIssue({ code: 'custom', message, path: ['password'] });
  };
}

export const RegisterInput = z
  .object({
    name: nameField,
    email: emailField,
    password: passwordField,
    password_confirmation: z.string({ error: 'The password confirmation field is required.' }).max(128),
    recaptcha_token: botCheckToken,
  })
  .refine(confirmed, confirmation)
  .superRefine(guessable('user', (v) => [String(v.name), String(v.email)]));

export const LoginInput = z.object({
  email: emailField,
  password: z.string({ error: 'The password field is required.' }).min(1, 'The password field is required.').max(128, 'The password may not be greater than 128 characters.'),
  remember: flag,
  recaptcha_token: botCheckToken,
});

export const ForgotPasswordInput = z.object({ email: emailField, recaptcha_token: botCheckToken });

export const ResetPasswordInput = z
  .object({
    token: z.string({ error: 'The token field is required.' }).min(1, 'The token field is required.').max(200),
    email: emailField,
    password: passwordField,
    password_confirmation: z.string({ error: 'The password confirmation field is required.' }).max(128),
  })
  .refine(confirmed, confirmation)
  .superRefine(guessable('user', (v) => [String(v.email)]));

export const ChangePasswordInput = z
  .object({
    current_password: z.string({ error: 'The current password field is required.' }).min(1, 'The current password field is required.').max(128),
    password: passwordField,
    password_confirmation: z.string({ error: 'The password confirmation field is required.' }).max(128),
  })
  .refine(confirmed, confirmation)
  .superRefine(guessable('user', (v) => [String(v.current_password)]));

export const AccessTokenInput = z.object({
  name: z.string({ error: 'The name field is required.' }).trim().min(1, 'The name field is required.').max(80, 'The name may not be greater than 80 characters.'),
});
