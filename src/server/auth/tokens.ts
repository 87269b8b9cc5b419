import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
import { randomBytes } from 'node:crypto';

/** A random secret with `bytes * 8` bits of entropy, base32 so it survives URLs and headers. */
export function generateSecret(bytes = 20): string {
  return encodeBase32LowerCaseNoPadding(randomBytes(bytes));
}

/** Only this hash is ever stored for sessions, access tokens and reset links. */
export function hashSecret(secret: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(secret)));
}
