import { WebAuthnError } from '@simplewebauthn/browser';
import { ApiError } from '../../stores/api.ts';
import type { Translate } from '../../stores/i18n.ts';

/** What to tell the person when a passkey ceremony or its check fails; the server's message when it has one. */
export function passkeyErrorMessage(error: unknown, t: Translate): string {
  if (error instanceof ApiError) return error.errors.credential?.[0] ?? error.message;
  const name = error instanceof Error ? error.name : '';
  const code = error instanceof WebAuthnError ? error.code : '';
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return t('passkeys.duplicate');
  // The person closed the prompt, or it timed out: both look the same to the page, by design.
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') return t('passkeys.cancelled');
  return t('passkeys.failed');
}

/**
 * Passkeys are bound to a host name (the relying party id): a site reached at an IP address
 * (`http://127.0.0.1:3000`, `http://[::1]:3000`) cannot have one, and browsers refuse the ceremony.
 * The page says so rather than letting it fail.
 */
export function hostCannotHavePasskeys(hostname: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith('[') || hostname.includes(':');
}
