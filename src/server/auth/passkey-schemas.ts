import { z } from 'zod';
import { UNSAFE_PERSON_NAME } from '../files/names.ts';

/** A base64url field of a WebAuthn answer; `max` in characters keeps a hostile body small. */
const base64url = (field: string, max: number) =>
  z
    .string({ error: `The ${field} field is required.` })
    .min(1, `The ${field} field is required.`)
    .max(max, `The ${field} is too long.`)
    .regex(/^[A-Za-z0-9_-]+$/, `The ${field} must be base64url.`);

// A credential id is at most 1023 bytes (WebAuthn §5.4.3): 1364 base64url characters.
const credentialId = base64url('credential id', 1364);
const extensions = z.record(z.string(), z.unknown(), { error: 'The client extension results must be an object.' }).optional().default({});
const attachment = z.enum(['platform', 'cross-platform']).optional();
const credentialType = z.literal('public-key', { error: 'The credential type must be public-key.' });

export const passkeyName = z
  .string({ error: 'The name field is required.' })
  .trim()
  .min(1, 'The name field is required.')
  .max(64, 'The name may not be greater than 64 characters.')
  .refine((v) => !UNSAFE_PERSON_NAME.test(v), 'The name may not contain control or text-direction characters.');

/** What `startRegistration()` of @simplewebauthn/browser answers. */
const RegistrationCredential = z.object(
  {
    id: credentialId,
    rawId: credentialId,
    type: credentialType,
    response: z.object(
      {
        clientDataJSON: base64url('clientDataJSON', 4096),
        attestationObject: base64url('attestationObject', 32768),
        transports: z.array(z.string().max(32), { error: 'The transports must be a list.' }).max(10).optional(),
      },
      { error: 'The credential response is required.' },
    ),
    authenticatorAttachment: attachment,
    clientExtensionResults: extensions,
  },
  { error: 'The credential field is required.' },
);

/** What `startAuthentication()` of @simplewebauthn/browser answers. */
const AuthenticationCredential = z.object(
  {
    id: credentialId,
    rawId: credentialId,
    type: credentialType,
    response: z.object(
      {
        clientDataJSON: base64url('clientDataJSON', 4096),
        authenticatorData: base64url('authenticatorData', 4096),
        signature: base64url('signature', 2048),
        userHandle: base64url('userHandle', 128).optional(),
      },
      { error: 'The credential response is required.' },
    ),
    authenticatorAttachment: attachment,
    clientExtensionResults: extensions,
  },
  { error: 'The credential field is required.' },
);

export const RegisterPasskeyInput = z.object({ name: passkeyName, credential: RegistrationCredential });
export const RenamePasskeyInput = z.object({ name: passkeyName });
export const PasskeyAssertionInput = z.object({ credential: AuthenticationCredential });

export type RegistrationCredentialInput = z.infer<typeof RegistrationCredential>;
export type AuthenticationCredentialInput = z.infer<typeof AuthenticationCredential>;
