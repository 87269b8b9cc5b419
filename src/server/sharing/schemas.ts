import { z } from 'zod';

/** Input shapes of the share endpoints. */

/** One address: no spaces, controls (a NUL, a CR/LF) or second `@`. */
// eslint-disable-next-line no-control-regex
export const EMAIL_ADDRESS = /^[^\s@\u0000-\u001f\u007f-\u009f]+@[^\s@\u0000-\u001f\u007f-\u009f]+$/;

/** SPEC §9: a link lives 1, 2, 6, 12, 24, 48 or 168 hours, or for ever (null). */
export const EXPIRATION_HOURS = [1, 2, 6, 12, 24, 48, 168] as const;

// A number of hours, as a JSON number or as the digits a form sends; null and '' for ever. Nothing
// else is coerced: `true` or `[1]` would otherwise pass as 1 hour.
const hours = z.union([z.number(), z.string().regex(/^\d{1,6}$/).transform(Number)], { error: 'The expiration must be a number of hours.' });
const expiration = z
  .union([z.null(), z.literal(''), hours], { error: 'The expiration must be a number of hours.' })
  .transform((v) => (v === '' || v === null ? null : v))
  .refine((v) => v === null || (EXPIRATION_HOURS as readonly number[]).includes(v), `The expiration must be one of ${EXPIRATION_HOURS.join(', ')} hours.`);

const password = z
  .union([z.string({ error: 'The password must be text.' }).min(1, 'The password must not be empty.').max(200, 'The password is too long.'), z.null()]);

const email = z.string({ error: 'The email must be text.' }).trim().toLowerCase().max(254, 'The email is too long.').regex(EMAIL_ADDRESS, 'The email is not valid.');
export const emails = z.array(email, { error: 'The emails must be a list.' }).max(20, 'At most 20 emails at once.');

const permission = z.enum(['visitor', 'editor'], { error: 'The permission must be visitor or editor.' });

export const CreateShareInput = z.object({
  type: z.enum(['folder', 'file'], { error: 'The type must be folder or file.' }),
  permission: permission.default('visitor'),
  password: password.optional(),
  expiration: expiration.optional(),
  emails: emails.optional(),
});

export const UpdateShareInput = z
  .object({
    permission: permission.optional(),
    /** A string sets a new password, null removes it; absent leaves it. */
    password: password.optional(),
    expiration: expiration.optional(),
    emails: emails.optional(),
  })
  .refine((v) => v.permission !== undefined || v.password !== undefined || v.expiration !== undefined || v.emails !== undefined, {
    message: 'Send a permission, a password, an expiration or emails to change.',
    path: ['permission'],
  });

export const RevokeInput = z.object({
  tokens: z.array(z.string({ error: 'Each token must be text.' }).max(100, 'A token is not valid.'), { error: 'The tokens must be a list.' }).min(1, 'Name at least one link.').max(1000, 'Too many links at once.'),
});

export const AuthenticateInput = z.object({
  password: z.string({ error: 'The password is required.' }).min(1, 'The password is required.').max(200, 'The password is too long.'),
});
