import type { Generated } from 'kysely';
import type { PlansTable, SubscriptionsTable, BillingAccountsTable, InvoicesTable, TransactionsTable, FailedPaymentsTable, PaymentEventsTable, UsageDaysTable, BandwidthCountersTable } from './schema-billing.ts';
import type { DavLocksTable, DavPropertiesTable } from './schema-dav.ts';
import type { TwoFactorRecoveryCodesTable, UserIdentitiesTable, OidcIssuersTable, PasskeysTable, WebauthnChallengesTable, SignInChallengesTable, SessionsTable, AccessTokensTable, PasswordResetsTable, EmailVerificationsTable, RateLimitsTable, ThrottlesTable, SignInDevicesTable } from './schema-auth.ts';

export type * from './schema-billing.ts';
export type * from './schema-dav.ts';
export type * from './schema-auth.ts';

/**
 * The Database type: one interface per table. Timestamps are ISO-8601 UTC strings and flags are 0/1
 * integers so the same columns work unchanged on SQLite and PostgreSQL.
 */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  sign_in_challenges: SignInChallengesTable;
  user_identities: UserIdentitiesTable;
  oidc_issuers: OidcIssuersTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  access_tokens: AccessTokensTable;
  password_resets: PasswordResetsTable;
  email_verifications: EmailVerificationsTable;
  rate_limits: RateLimitsTable;
  throttles: ThrottlesTable;
  sign_in_devices: SignInDevicesTable;
  settings: SettingsTable;
  items: ItemsTable;
  favourites: FavouritesTable;
  notifications: NotificationsTable;
  remote_uploads: RemoteUploadsTable;
  pages: PagesTable;
  shares: SharesTable;
  share_sessions: ShareSessionsTable;
  upload_requests: UploadRequestsTable;
  upload_request_items: UploadRequestItemsTable;
  upload_reservations: UploadReservationsTable;
  pending_blobs: PendingBlobsTable;
  blob_deletions: BlobDeletionsTable;
  audit_log: AuditLogTable;
  job_runs: JobRunsTable;
  user_deletions: UserDeletionsTable;
  languages: LanguagesTable;
  translation_overrides: TranslationOverridesTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  team_invitations: TeamInvitationsTable;
  dav_locks: DavLocksTable;
  dav_properties: DavPropertiesTable;
  plans: PlansTable;
  subscriptions: SubscriptionsTable;
  billing_accounts: BillingAccountsTable;
  invoices: InvoicesTable;
  transactions: TransactionsTable;
  failed_payments: FailedPaymentsTable;
  payment_events: PaymentEventsTable;
  usage_days: UsageDaysTable;
  bandwidth_counters: BandwidthCountersTable;
}

export type Role = 'admin' | 'user';
export type ThemeMode = 'light' | 'dark' | 'system';
export type EmojiType = 'twemoji' | 'applemoji';

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  role: Role;
  color: string;
  avatar_key: string | null;
  first_name: string | null;
  last_name: string | null;
  theme_mode: ThemeMode | null;
  emoji_type: EmojiType | null;
  /** 1: a sound plays when a notification arrives; 0: muted (SPEC §2). */
  notification_sound: Generated<number>;
  /** JSON object of restriction flags that override the defaults (SPEC §3 meta.restrictions); null for none. */
  restrictions: string | null;
  email_verified_at: string | null;
  created_at: string;
  updated_at: string;
  /** Bytes this user may store, set by an admin: null uses the instance default, 0 is no limit (users/quota.ts). */
  storage_limit_bytes: number | null;
  /** When an admin started deleting the account: it can no longer sign in, its sessions and tokens are refused. */
  deletion_started_at: string | null;
  /** When a session was last made for this account (a sign-in); null before the first. */
  last_signed_in_at: string | null;
  /** Bytes of all the user's files, the trash included; kept by triggers on items (migration 20261128090000_admin_users). */
  storage_used_bytes: Generated<number>;
  /** When the account turned two-factor authentication on (auth/second-step.ts); null while it is off. */
  two_factor_enabled_at: string | null;
  /** The TOTP key, base32, sealed with settings/secrets.ts sealSecret (purpose `totp:<user id>`); pending while two_factor_enabled_at is null. */
  totp_secret: string | null;
  /** The last TOTP time step a code was accepted for (replay protection); null before the first. */
  totp_last_step: number | null;
}

/** A public page at /page/:slug (terms, privacy, ...): Markdown, rendered with raw HTML disabled. */
export interface PagesTable {
  slug: string;
  title: string;
  content: string;
  visible: number;
  created_at: string;
  updated_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export type ItemType = 'folder' | 'file';

export interface ItemsTable {
  id: string;
  owner_id: string;
  /** null: the owner's home. Kept while trashed: it is where a restore puts the item back. */
  parent_id: string | null;
  type: ItemType;
  name: string;
  /** NFC-normalised, lower-cased name: unique per folder among items not in the trash. */
  name_key: string;
  color: string | null;
  /** JSON text: a plain emoji string or an emoji object from the picker. */
  emoji: string | null;
  mimetype: string | null;
  /** Bytes; 0 for folders. */
  size: number;
  blob_key: string | null;
  /** Blob key prefix of the file's thumbnails (`{prefix}-{xs|sm|md}.webp`); null until made. */
  thumbnail_key: string | null;
  /** Tries that did not make a thumbnail; 3 (MAX_THUMBNAIL_ATTEMPTS) gives up (migration 20261204100000_thumbnail_attempts). */
  thumbnail_attempts: Generated<number>;
  /** When a thumbnail was last tried without being made; null when never. */
  thumbnail_attempted_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Id of the item whose trashing trashed this one (its own id when trashed directly). */
  deleted_with: string | null;
  /** A folder's items outside the trash, kept by triggers (migration 20261201090000_folder_counts); 0 for files. */
  live_children: Generated<number>;
}

export interface FavouritesTable {
  user_id: string;
  item_id: string;
  created_at: string;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  /** SPEC §3: gift, team-invitation, subscription-created, billing-alert, insufficient-balance, file-request, remote-upload-done. */
  category: string;
  title: string;
  description: string;
  /** JSON text `{ type: 'route' | 'invitation', params: { id, route, button } }`, or null. */
  action: string | null;
  read_at: string | null;
  created_at: string;
  /** Events gathered into this one notification while it is unread (the files of one upload session); null stands alone. */
  group_key: string | null;
  /** How many events it holds. */
  count: Generated<number>;
}

export type RemoteUploadStatus = 'running' | 'done' | 'failed';

export interface RemoteUploadsTable {
  id: string;
  user_id: string;
  /** The folder the files go to; null is home. */
  parent_id: string | null;
  status: RemoteUploadStatus;
  /** JSON text: the requested URLs, in order. */
  urls: string;
  /** JSON text: one `{ url, status: 'done' | 'failed', item_id?, name?, message? }` per URL handled so far. */
  results: string;
  created_at: string;
  finished_at: string | null;
}

export type SharePermission = 'visitor' | 'editor';

export interface SharesTable {
  id: string;
  /** The link token (192 random bits, base32). */
  token: string;
  user_id: string;
  item_id: string;
  type: ItemType;
  permission: SharePermission;
  /** argon2id of the link password; null for an open link. */
  password_hash: string | null;
  /** Hours the link lives (SPEC §9 options), null for no expiry. */
  expire_in: number | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A browser that unlocked a protected link: SHA-256 of its cookie token. */
export interface ShareSessionsTable {
  id: string;
  share_id: string;
  expires_at: string;
}

export type UploadRequestStatus = 'active' | 'filled' | 'expired';

export interface UploadRequestsTable {
  id: string;
  token: string;
  user_id: string;
  folder_id: string;
  name: string | null;
  notes: string | null;
  email: string | null;
  /** 'active' or 'filled' as stored; 'expired' is read from expires_at. */
  status: UploadRequestStatus;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

export interface UploadRequestItemsTable {
  request_id: string;
  item_id: string;
}

/**
 * An upload that is finishing: written before its bytes reach the blob store, removed in the
 * transaction that records the item (src/server/uploads/intents.ts).
 */
export interface PendingBlobsTable {
  blob_key: string;
  owner_id: string;
  /** The tus upload id; null for a plain upload or an import from URL. */
  upload_id: string | null;
  /** JSON text: what a tus upload becomes (name, folder, type, size, binding); null otherwise. */
  finish: string | null;
  created_at: string;
  /** The app node finishing it (AppContext.nodeId); null on rows from before nodes were recorded. */
  node_id: string | null;
}

/** A blob whose rows are deleted for good and whose bytes are on their way out (src/server/blobs/deletions.ts). */
export interface BlobDeletionsTable {
  blob_key: string;
  created_at: string;
}

export type Id = Generated<string>;

/** Quota promised to an upload in progress (src/server/uploads/reservations.ts). */
export interface UploadReservationsTable {
  /** The tus upload id, `plain:{uuid}`, or `chunk:{key}` (a chunked upload, uploads/chunks.ts). */
  id: string;
  owner_id: string;
  kind: 'tus' | 'plain' | 'chunk';
  bytes: number;
  created_at: string;
  touched_at: string;
  /** The app node receiving it (AppContext.nodeId); null on rows from before nodes were recorded. */
  node_id: string | null;
}

/** One admin change (src/server/admin/audit.ts). Insert-only. */
export interface AuditLogTable {
  id: string;
  /** Null when the acting admin's account is gone since. */
  actor_id: string | null;
  actor_name: string;
  /** `user.create`, `user.role`, `setting.update`, `page.delete`, … */
  action: string;
  /** `user`, `page`, `setting`, `language`, … */
  target_type: string;
  target_id: string | null;
  /** A readable name for the target at the time (an email, a slug, a setting group). */
  target_label: string;
  /** JSON of the changed fields' values before and after, secrets replaced by "[redacted]". */
  before: string | null;
  after: string | null;
  created_at: string;
}

/** A background job's last run, written by runEvery (src/server/jobs/status.ts). */
export interface JobRunsTable {
  name: string;
  last_started_at: string | null;
  last_finished_at: string | null;
  last_duration_ms: number | null;
  /** 1 when the last finished run failed. */
  last_failed: Generated<number>;
  last_error: string | null;
  last_error_at: string | null;
  runs: Generated<number>;
  failures: Generated<number>;
  /** When the next run is due, on any node (ISO); null: at the next tick. */
  next_run_at: string | null;
  /** Failed runs since the last good one: the back-off (jobs/backoff.ts). */
  consecutive_failures: Generated<number>;
}

export type UserDeletionState = 'running' | 'done';

/** The deletion of an account (src/server/admin/users/deletion.ts): written first, kept as the record of what was removed. */
export interface UserDeletionsTable {
  id: string;
  user_id: string;
  email: string;
  name: string;
  /** The admin who asked for it. */
  requested_by: string;
  requested_by_name: string;
  state: UserDeletionState;
  /** What was removed so far, counted in the transaction that removed it. */
  files: number;
  folders: number;
  bytes: number;
  shares: number;
  upload_requests: number;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** A language users may pick: the built-in catalogues (en, de) and those an admin added (src/server/i18n). */
export interface LanguagesTable {
  /** A canonical BCP 47 tag (`pt-BR`). */
  code: string;
  name: string;
  /** 1 when written right to left (pages get dir="rtl"). */
  rtl: number;
  /** Bumped with every change to this language's strings: the cue for each process's catalogue cache. */
  version: number;
  created_at: string;
  updated_at: string;
}

/** An admin's text for one catalogue key (`locations.home`) in one language, over the built-in one. */
export interface TranslationOverridesTable {
  language_code: string;
  key: string;
  value: string;
  updated_by: string | null;
  updated_at: string;
}

/** A team folder (src/server/teams): one of the owner's folders, shared with its members. */
export interface TeamsTable {
  id: string;
  /** The team folder's item id; unique. */
  folder_id: string;
  owner_id: string;
  created_at: string;
}

/** SPEC §4 team permissions; the owner is `master` and has no member row. */
export type TeamPermission = 'can_edit' | 'can_view';

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
  permission: TeamPermission;
  created_at: string;
}

/** 'pending', 'accepted', 'declined' or 'revoked' as stored; 'expired' is read from expires_at. */
export type TeamInvitationStatus = 'pending' | 'accepted' | 'declined' | 'revoked' | 'expired';

export interface TeamInvitationsTable {
  /** The unguessable token of the invitation link. */
  id: string;
  team_id: string;
  /** Trimmed, lower case. */
  email: string;
  permission: TeamPermission;
  /** Null once the inviting account is gone. */
  inviter_id: string | null;
  status: Exclude<TeamInvitationStatus, 'expired'>;
  expires_at: string;
  created_at: string;
  responded_at: string | null;
}
