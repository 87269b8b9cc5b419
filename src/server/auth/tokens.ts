import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { hash, randomBytes } from 'node:crypto';

/** A random secret with `bytes * 8` bits of entropy, base32 so it survives URLs and headers. */
export function generateSecret(bytes = 20): string {
  return encodeBase32LowerCaseNoPadding(randomBytes(bytes));
}

/**
 * Only this hash is ever stored for sessions, access tokens and reset links: SHA-256 of the UTF-8
 * bytes, in lower-case hex. Node's one-shot native hash: every signed-in request makes one.
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}
