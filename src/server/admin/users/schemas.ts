import { z } from 'zod';
import { emailField, nameField, passwordField } from '../../auth/schemas.ts';

const roleField = z.enum(['admin', 'user'], { error: 'The role must be admin or user.' });
const confirmationField = z.string({ error: 'The password confirmation field is required.' }).max(128);
const NOT_CONFIRMED = 'The password confirmation does not match.';

/** 1 PiB: far beyond any disk, and still an exact integer in JSON and JavaScript. */
const MAX_LIMIT_BYTES = 2 ** 50;

/** A user's storage limit: null for the instance default, 0 for no limit, else bytes. */
export const storageLimitField = z
  .number({ error: 'The storage limit must be a number of bytes, or null for the instance default.' })
  .int({ error: 'The storage limit must be a whole number of bytes.' })
  .min(0, { error: 'The storage limit cannot be negative.' })
  .max(MAX_LIMIT_BYTES, { error: 'The storage limit can be at most 1 PiB.' })
  .nullable();

/**
 * A new account: a password the admin chooses (checked for strength once the role is known, in the
 * service), or an invitation mail with a link to choose one. `verified` marks the address verified
 * at once (only with a password: an invitation verifies it when its link is used).
 */
export const CreateUserInput = z
  .object({
    name: nameField,
    email: emailField,
    role: roleField.default('user'),
    password: passwordField.optional(),
    password_confirmation: confirmationField.optional(),
    send_invitation: z.boolean({ error: 'send_invitation must be true or false.' }).default(false),
    verified: z.boolean({ error: 'verified must be true or false.' }).default(false),
    storage_limit_bytes: storageLimitField.default(null),
  })
  .superRefine((v, c) => {
    if (v.send_invitation && v.password !== undefined) c.addIssue({ code: 'custom', path: ['password'], message: 'Set a password or send an invitation, not both.' });
    if (!v.send_invitation && v.password === undefined) c.addIssue({ code: 'custom', path: ['password'], message: 'The password field is required unless an invitation is sent.' });
    if (v.password !== undefined && v.password !== v.password_confirmation) c.addIssue({ code: 'custom', path: ['password_confirmation'], message: NOT_CONFIRMED });
    if (v.send_invitation && v.verified) c.addIssue({ code: 'custom', path: ['verified'], message: 'An invited person verifies the address by following the link.' });
  });

/** The details tab: any of name, email, role and the verified state; at least one. */
export const UpdateUserInput = z
  .object({
    name: nameField.optional(),
    email: emailField.optional(),
    role: roleField.optional(),
    verified: z.boolean({ error: 'verified must be true or false.' }).optional(),
  })
  .refine((v) => Object.values(v).some((value) => value !== undefined), { message: 'Send at least one of name, email, role and verified.', path: ['_'] });

/** The password tab: set a new password, or mail a link to choose one. */
export const UserPasswordInput = z.discriminatedUnion(
  'action',
  [
    z
      .object({ action: z.literal('set'), password: passwordField, password_confirmation: confirmationField })
      .refine((v) => v.password === v.password_confirmation, { message: NOT_CONFIRMED, path: ['password_confirmation'] }),
    z.object({ action: z.literal('send_link') }),
  ],
  { error: 'The action must be set or send_link.' },
);
