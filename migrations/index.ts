import type { Migration } from 'kysely/migration';
import * as accounts from './20261123090000_accounts.ts';
import * as items from './20261123100000_items.ts';
import * as uploads from './20261124090000_uploads.ts';
import * as thumbnails from './20261124120000_thumbnails.ts';
import * as search from './20261124150000_search.ts';
import * as pages from './20261125090000_pages.ts';
import * as shares from './20261125090000_shares.ts';
import * as uploadReservations from './20261126090000_upload_reservations.ts';
import * as pendingBlobs from './20261126100000_pending_blobs.ts';
import * as signInThrottles from './20261126120000_sign_in_throttles.ts';
import * as notificationGroups from './20261126140000_notification_groups.ts';
import * as auditLog from './20261127090000_audit_log.ts';
import * as userStorageAndDeletions from './20261127120000_user_storage_and_deletions.ts';
import * as adminUsers from './20261128090000_admin_users.ts';
import * as jobRuns from './20261128090000_job_runs.ts';
import * as languages from './20261128100000_languages.ts';
import * as teams from './20261129090000_teams.ts';
import * as notificationSound from './20261129100000_notification_sound.ts';
import * as signInChallenges from './20261130090000_sign_in_challenges.ts';
import * as userIdentities from './20261130100000_user_identities.ts';
import * as twoFactor from './20261130110000_two_factor.ts';
import * as passkeys from './20261130120000_passkeys.ts';
import * as oidcIssuers from './20261130130000_oidc_issuers.ts';
import * as folderCounts from './20261201090000_folder_counts.ts';
import * as billing from './20261202090000_billing.ts';
import * as billingRefs from './20261202100000_billing_refs.ts';
import * as jobSchedule from './20261203100000_job_schedule.ts';
import * as thumbnailAttempts from './20261204100000_thumbnail_attempts.ts';
import * as davLocks from './20261205100000_dav_locks.ts';
import * as uploadNodes from './20261206100000_upload_nodes.ts';
import * as blobDeletions from './20261206110000_blob_deletions.ts';
import * as rateLimitExpiry from './20261206120000_rate_limit_expiry.ts';

/**
 * Every migration, imported statically: a folder scan at run time breaks once Vite bundles the
 * server. Add new files here in timestamp order.
 */
export const migrations: Record<string, Migration> = {
  '20261123090000_accounts': accounts,
  '20261123100000_items': items,
  '20261124090000_uploads': uploads,
  '20261124120000_thumbnails': thumbnails,
  '20261124150000_search': search,
  '20261125090000_pages': pages,
  '20261125090000_shares': shares,
  '20261126090000_upload_reservations': uploadReservations,
  '20261126100000_pending_blobs': pendingBlobs,
  '20261126120000_sign_in_throttles': signInThrottles,
  '20261126140000_notification_groups': notificationGroups,
  '20261127090000_audit_log': auditLog,
  '20261127120000_user_storage_and_deletions': userStorageAndDeletions,
  '20261128090000_admin_users': adminUsers,
  '20261128090000_job_runs': jobRuns,
  '20261128100000_languages': languages,
  '20261129090000_teams': teams,
  '20261129100000_notification_sound': notificationSound,
  '20261130090000_sign_in_challenges': signInChallenges,
  '20261130100000_user_identities': userIdentities,
  '20261130110000_two_factor': twoFactor,
  '20261130120000_passkeys': passkeys,
  '20261130130000_oidc_issuers': oidcIssuers,
  '20261201090000_folder_counts': folderCounts,
  '20261202090000_billing': billing,
  '20261202100000_billing_refs': billingRefs,
  '20261203100000_job_schedule': jobSchedule,
  '20261204100000_thumbnail_attempts': thumbnailAttempts,
  '20261205100000_dav_locks': davLocks,
  '20261206100000_upload_nodes': uploadNodes,
  '20261206110000_blob_deletions': blobDeletions,
  '20261206120000_rate_limit_expiry': rateLimitExpiry,
};
