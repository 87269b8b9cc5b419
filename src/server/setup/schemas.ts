import { z } from 'zod';
import { emailField, nameField, passwordField } from '../auth/schemas.ts';
import { weakPasswordMessage } from '../auth/strength.ts';

const flag = z.union([z.boolean(), z.enum(['on', 'true', '1', 'false', '0', ''])]).transform((v) => v === true || v === 'on' || v === 'true' || v === '1');
const text = (max: number, field: string) => z.string({ error: `The ${field} field is required.` }).trim().max(max, `The ${field} may not be greater than ${max} characters.`);

export const SetupTokenInput = z.object({ token: z.string({ error: 'The setup token is required.' }).trim().min(1, 'The setup token is required.').max(200) });

export const PurchaseCodeInput = z.object({
  accept_license: flag.refine((v) => v, 'You must accept the licence to install.'),
  purchase_code: text(100, 'purchase code')
    .regex(/^[A-Za-z0-9-]*$/, 'The purchase code may only contain letters, digits and dashes.')
    .optional()
    .default(''),
});

export const DatabaseInput = z.discriminatedUnion('driver', [
  z.object({ driver: z.literal('embedded') }),
  z.object({
    driver: z.literal('postgres'),
    database_url: z
      .string({ error: 'The database URL field is required.' })
      .trim()
      .max(1000)
      .regex(/^postgres(ql)?:\/\/[^\s]+$/, 'The database URL must look like postgres://user:password@host:5432/database.'),
  }),
], { error: 'Choose the embedded database or PostgreSQL.' });

export const MAIL_DRIVERS = ['smtp', 'mailgun', 'ses', 'postmark', 'log'] as const;
export const MAIL_ENCRYPTIONS = ['tls', 'ssl', 'none'] as const;

export const STORAGE_DRIVERS = ['local', 's3'] as const;
/** S3's bucket naming rules (the DNS-compatible ones every S3-compatible server accepts), as STORAGE's S3_BUCKET. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export const EnvironmentInput = z
  .object({
    storage_driver: z.enum(STORAGE_DRIVERS, { error: 'The storage must be local or s3.' }).default('local'),
    /** With s3 (the S3_* variables of the environment): empty endpoint means AWS S3 of the region. */
    s3_endpoint: text(500, 'S3 endpoint')
      .refine((v) => v === '' || /^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(v), 'The S3 endpoint must be an http:// or https:// address.')
      .default(''),
    s3_region: text(40, 'S3 region').regex(/^[a-z0-9-]{2,40}$/, 'The S3 region must be a region name such as us-east-1.').default('us-east-1'),
    s3_bucket: text(63, 'S3 bucket').default(''),
    s3_access_key_id: text(255, 'S3 access key').default(''),
    s3_secret_access_key: z.string({ error: 'The S3 secret key must be text.' }).max(255, 'The S3 secret key may not be greater than 255 characters.').default(''),
    s3_force_path_style: flag.default(false),
    s3_checksums: z.enum(['when_supported', 'when_required'], { error: 'The S3 checksums must be when_supported or when_required.' }).default('when_supported'),
    mail_driver: z.enum(MAIL_DRIVERS, { error: `The mail driver must be one of ${MAIL_DRIVERS.join(', ')}.` }),
    mail_host: text(255, 'mail host').default(''),
    mail_port: z.coerce.number({ error: 'The mail port must be a number.' }).int('The mail port must be a whole number.').min(1, 'The mail port must be between 1 and 65535.').max(65535, 'The mail port must be between 1 and 65535.').default(587),
    mail_username: text(255, 'mail username').default(''),
    mail_password: z.string().max(255, 'The mail password may not be greater than 255 characters.').default(''),
    mail_encryption: z.enum(MAIL_ENCRYPTIONS, { error: 'The encryption must be tls, ssl or none.' }).default('tls'),
    /** The log driver sends nothing: it may go without a sender address (the MAIL_FROM_ADDRESS default then). */
    mail_from_address: z
      .string({ error: 'The sender address must be text.' })
      .trim()
      .toLowerCase()
      .max(255, 'The sender address may not be greater than 255 characters.')
      .default('')
      .refine((v) => v === '' || z.email().safeParse(v).success, 'The sender address must be a valid email address.'),
    mail_from_name: text(120, 'sender name').min(1, 'The sender name field is required.'),
  })
  .refine((v) => v.mail_driver === 'log' || /^[A-Za-z0-9.-]+$/.test(v.mail_host), { message: 'The mail host must be a host name or address.', path: ['mail_host'] })
  .refine((v) => v.mail_driver === 'log' || v.mail_from_address !== '', { message: 'The sender address field is required.', path: ['mail_from_address'] })
  .refine((v) => v.storage_driver !== 's3' || BUCKET.test(v.s3_bucket), { message: 'The S3 bucket must be a bucket name: 3-63 lowercase letters, digits, dots and hyphens.', path: ['s3_bucket'] });

export const TestMailInput = z.object({
  test_email: z
    .string({ error: 'The test address field is required.' })
    .trim()
    .min(1, 'The test address field is required.')
    .max(255, 'The test address may not be greater than 255 characters.')
    .pipe(z.email('The test address must be a valid email address.')),
});

/** A logo's address: a path on this site or an https:// address; empty for none. The admin's appearance settings use it too. */
export const logoUrl = text(500, 'logo')
  .refine((v) => v === '' || /^\/[A-Za-z0-9._~/-]*$/.test(v) || /^https:\/\/[^\s"'<>]+$/.test(v), 'A logo must be a path on this site (/logo.svg) or an https:// address.')
  .default('');

export const AppSetupInput = z.object({
  app_name: text(60, 'app name').min(1, 'The app name field is required.'),
  app_description: text(300, 'description').default(''),
  contact_email: emailField,
  registration_open: flag.default(true),
  default_storage_gb: z.coerce.number({ error: 'The default storage must be a number of GB.' }).min(0, 'The default storage may not be negative.').max(1_000_000, 'The default storage is too large.'),
  subscription_type: z.enum(['none', 'fixed', 'metered'], { error: 'The subscription type must be none, fixed or metered.' }),
  logo_horizontal: logoUrl,
  logo_horizontal_dark: logoUrl,
});


/** The first admin holds the keys to the instance: a longer, less guessable password than a user's. */
export const AdminSetupInput = z
  .object({ name: nameField, email: emailField, password: passwordField, password_confirmation: z.string({ error: 'The password confirmation field is required.' }).max(128) })
  .refine((v) => v.password === v.password_confirmation, { message: 'The password confirmation does not match.', path: ['password_confirmation'] })
  .superRefine((v, c) => {
    const weak = (message: string) => c.addIssue({ code: 'custom', message, path: ['password'] });
    const lower = v.password.toLowerCase();
    if (v.password.length < 10) weak('The admin password must be at least 10 characters.');
    else if (lower.includes(v.email.split('@')[0]!) && v.email.split('@')[0]!.length >= 4) weak('The admin password must not contain your email address.');
    else {
      const message = weakPasswordMessage(v.password, [v.name, v.email], 'admin');
      if (message) weak(message);
    }
  });
