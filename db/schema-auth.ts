import type { Generated } from 'kysely';

// Signing in (src/server/auth/): second factors, linked identities, passkeys, sessions, tokens,
// resets, verifications and the throttles that guard them.

/** One single-use recovery code of an account's two-factor authentication (migration 20261130110000_two_factor). */
export interface TwoFactorRecoveryCodesTable {
  id: string;
  user_id: string;
  /** SHA-256 of the normalised code, hex. */
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

/** An account at a social or OpenID Connect provider linked to a user (migration 20261130100000_user_identities). */
export interface UserIdentitiesTable {
  id: string;
  user_id: string;
  /** 'google', 'facebook', 'github', or 'oidc:<issuer id>'. */
  provider: string;
  /** The provider's stable account id (`sub`). */
  subject: string;
  email: string | null;
  created_at: string;
  last_used_at: string | null;
}

/** An OpenID Connect identity provider configured by an admin (migration 20261130130000_oidc_issuers). */
export interface OidcIssuersTable {
  /** A slug, fixed once made: it names the routes and the linked identities ('oidc:<id>'). */
  id: string;
  label: string;
  issuer_url: string;
  client_id: string;
  /** Encrypted with settings/secrets.ts sealSecret; '' when unset. */
  client_secret: Generated<string>;
  enabled: Generated<number>;
  /** 1 on at most one row: "only this provider" (auth/oidc/only-provider.ts). */
  sign_in_only: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** A passkey, a WebAuthn credential of a user (migration 20261130120000_passkeys). */
export interface PasskeysTable {
  /** The credential id, base64url. */
  id: string;
  user_id: string;
  name: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: number;
  /** JSON array of the transports the browser reported. */
  transports: string;
  /** 'singleDevice' or 'multiDevice'. */
  device_type: string;
  backed_up: number;
  created_at: string;
  last_used_at: string | null;
}

/** A WebAuthn challenge waiting for its answer, single-use (migration 20261130120000_passkeys). */
export interface WebauthnChallengesTable {
  /** SHA-256 of the challenge, hex. */
  id: string;
  /** Null for a sign-in with a passkey alone. */
  user_id: string | null;
  purpose: 'register' | 'sign-in' | 'second-step';
  challenge: string;
  created_at: string;
  expires_at: string;
}

/** A first sign-in step that passed, waiting for the second factor (migration 20261130090000_sign_in_challenges). */
export interface SignInChallengesTable {
  /** SHA-256 of the challenge token, hex. */
  id: string;
  user_id: string;
  persistent: number;
  /** 'password', 'social:<provider>' or 'oidc:<issuer id>'. */
  method: string;
  failed_attempts: Generated<number>;
  created_at: string;
  expires_at: string;
}

export interface SessionsTable {
  /** SHA-256 of the token, hex. The token itself is only ever in the client's cookie. */
  id: string;
  user_id: string;
  expires_at: string;
  persistent: number;
  created_at: string;
}

export interface AccessTokensTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  last_used_at: string | null;
  created_at: string;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  expires_at: string;
  created_at: string;
}

export interface EmailVerificationsTable {
  token_hash: string;
  user_id: string;
  expires_at: string;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  reset_at: string;
}

/** A back-off throttle: attempts counted until `forget_at`; none accepted before `blocked_until`. */
export interface ThrottlesTable {
  key: string;
  count: number;
  blocked_until: string | null;
  forget_at: string;
}

/** A device cookie (only its hash as id): a browser where this user signed in before. */
export interface SignInDevicesTable {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}
