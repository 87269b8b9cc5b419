import { sql, type ExpressionBuilder } from 'kysely';
import { compiledOnce } from '../../../db/compiled-once.ts';
import type { Database } from '../../../db/schema.ts';
import type { User } from '../auth/sessions.ts';
import { formatBytes } from '../config/client-config.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../files/queries.ts';
import { AppError } from '../http/errors.ts';
import { getSettings, type Settings } from '../settings/service.ts';
import { capacityFor } from '../billing/limits.ts';
import { storageCapacity } from '../users/quota.ts';
import { assertEmailVerified, billingLimited, restrictionsFor } from '../users/restrictions.ts';
import { extensionOf } from './names.ts';

/**
 * Upload limits, checked before the bytes flow (from the declared length) and, for the quota,
 * again atomically when the upload finishes (finish.ts). The quota counts stored bytes and the
 * reservations of open uploads (reservations.ts). Statuses follow SPEC §8:
 *
 * - an unverified address while `email_verification_required` is on: 403, code
 *   `email_verification_required` (users/restrictions.ts);
 * - canUpload false: 423, code `upload_temporarily_disabled` (metered or fixed plans) or
 *   `exceed_upload_limit` (no subscription), as a refused folder creation is a 423 too;
 * - a blacklisted type (by name, declared type, or the bytes): 422, code `mimetype_blacklisted`,
 *   the message naming the type, and `type` in the body;
 * - over the upload limit (`upload_limit_bytes`, 0 = none): 413, code `upload_limit_exceeded`,
 *   the message carrying the formatted limit, and `limit` in the body;
 * - over the storage quota: 423, code `storage_limit_exceeded`.
 */
export interface UploadPolicy {
  settings: Settings;
  /** Bytes the owner may store in all; null for no limit. */
  capacity: number | null;
}

/** The limits for uploads into `owner`'s storage (the owner's own quota, else their fixed plan's, else the instance default). */
export async function uploadPolicy(ctx: AppContext, owner: Pick<User, 'id' | 'storage_limit_bytes'> | undefined): Promise<UploadPolicy> {
  const settings = await getSettings(ctx);
  const bytes = owner ? await capacityFor(ctx, owner, settings) : storageCapacity(owner, settings);
  return { settings, capacity: bytes > 0 ? bytes : null };
}

export function assertCanUpload(user: Pick<User, 'restrictions' | 'email_verified_at'>, policy: UploadPolicy): void {
  assertEmailVerified(user, policy.settings);
  if (restrictionsFor(user).canUpload) return;
  if (policy.settings.subscription_type === 'none' && !billingLimited(user)) {
    throw new AppError(423, 'Uploading is not allowed on your account.', { code: 'exceed_upload_limit' });
  }
  throw new AppError(423, 'Uploading is temporarily disabled on your account.', { code: 'upload_temporarily_disabled' });
}

/** The blacklist entry a name or type falls under, as the type to name in the refusal; null when allowed. */
export function blacklisted(policy: UploadPolicy, candidate: { name?: string; types?: (string | null | undefined)[]; extensions?: (string | null | undefined)[] }): string | null {
  const entries = policy.settings.mimetypes_blacklist.map((e) => String(e).trim().toLowerCase().replace(/^\./, '')).filter(Boolean);
  if (!entries.length) return null;
  const extensions = [candidate.name ? extensionOf(candidate.name) : '', ...(candidate.extensions ?? [])].map((e) => (e ?? '').toLowerCase()).filter(Boolean);
  const types = (candidate.types ?? []).map((t) => (t ?? '').split(';')[0]!.trim().toLowerCase()).filter(Boolean);
  for (const entry of entries) {
    if (entry.includes('/')) {
      const hit = entry.endsWith('/*') ? types.find((t) => t.startsWith(entry.slice(0, -1))) : types.find((t) => t === entry);
      if (hit) return hit;
      continue;
    }
    if (extensions.includes(entry)) return entry;
    // An extension entry also catches a type whose subtype names it (`exe` and `application/exe`).
    const bySubtype = types.find((t) => t.split('/')[1] === entry);
    if (bySubtype) return entry;
  }
  return null;
}

export function typeRefused(type: string): AppError {
  return new AppError(422, `Files of type "${type}" are not allowed.`, { code: 'mimetype_blacklisted', errors: { file: [`Files of type "${type}" are not allowed.`] } });
}

export function assertTypeAllowed(policy: UploadPolicy, candidate: Parameters<typeof blacklisted>[1]): void {
  const hit = blacklisted(policy, candidate);
  if (hit) throw typeRefused(hit);
}

export function tooLarge(policy: UploadPolicy): AppError {
  const limit = formatBytes(policy.settings.upload_limit_bytes);
  return new AppError(413, `The file is larger than the upload limit of ${limit}.`, { code: 'upload_limit_exceeded' });
}

export function overQuota(): AppError {
  return new AppError(423, 'There is not enough storage space left for this file.', { code: 'storage_limit_exceeded' });
}

/** The upload limit in bytes, or null for none. */
export function uploadLimit(policy: UploadPolicy): number | null {
  return policy.settings.upload_limit_bytes > 0 ? policy.settings.upload_limit_bytes : null;
}

/**
 * Bytes the owner stores now: every file, the trash included (its blobs still take space). The
 * user row's counter, kept by triggers on items (migrations/20261128090000_admin_users.ts): one
 * row, whatever the file count.
 */
export async function usedBytes(db: Db, ownerId: string): Promise<number> {
  const row = await db.selectFrom('users').select('storage_used_bytes').where('id', '=', ownerId).executeTakeFirst();
  return Number(row?.storage_used_bytes ?? 0);
}

/**
 * Stored plus promised bytes of the owner (the user row's counter and the open reservations of
 * reservations.ts), leaving out the reservation `exceptId` (the upload being judged). One statement
 * for both: every upload asks twice (before its bytes and when it finishes).
 */
export async function committedBytes(db: Db, ownerId: string, exceptId?: string | null): Promise<number> {
  const row = (await (exceptId ? committedExcept(db, ownerId, exceptId) : committed(db, ownerId))).rows[0];
  return Number(row?.used ?? 0) + Number(row?.reserved ?? 0);
}

// The two shapes of that statement, each compiled once (db/compiled-once.ts).
const storedBytes = (eb: ExpressionBuilder<Database, never>, ownerId: string) => eb.selectFrom('users').select('storage_used_bytes').where('id', '=', ownerId).as('used');
const reservedBytes = (eb: ExpressionBuilder<Database, never>, ownerId: string) => eb.selectFrom('upload_reservations').select(sql<number | string | null>`sum(bytes)`.as('bytes')).where('owner_id', '=', ownerId);
const committed = compiledOnce((db, ownerId: string) => db.selectNoFrom((eb) => [storedBytes(eb, ownerId), reservedBytes(eb, ownerId).as('reserved')]));
const committedExcept = compiledOnce((db, ownerId: string, exceptId: string) =>
  db.selectNoFrom((eb) => [storedBytes(eb, ownerId), reservedBytes(eb, ownerId).where('id', '!=', exceptId).as('reserved')]),
);

/**
 * Bytes still free for the owner, or null for no quota: the capacity less what is stored and what
 * open uploads have reserved, leaving out the reservation `exceptId` (the upload being judged).
 */
export async function freeBytes(db: Db, ownerId: string, policy: UploadPolicy, exceptId?: string | null): Promise<number | null> {
  if (policy.capacity === null) return null;
  return Math.max(0, policy.capacity - (await committedBytes(db, ownerId, exceptId)));
}

/**
 * Everything that can be judged before a byte is stored: may the user upload, is the name or the
 * declared type blacklisted, does the declared length pass the upload limit and fit the quota.
 * `size` null: unknown yet (the stream is counted instead, see receive.ts).
 */
export async function checkBeforeBytes(
  ctx: AppContext,
  user: User,
  policy: UploadPolicy,
  input: { name: string; declaredType?: string | null | undefined; size: number | null },
): Promise<void> {
  assertCanUpload(user, policy);
  assertTypeAllowed(policy, { name: input.name, types: [input.declaredType] });
  if (input.size === null) return;
  const limit = uploadLimit(policy);
  if (limit !== null && input.size > limit) throw tooLarge(policy);
  const free = await freeBytes(ctx.db, user.id, policy);
  if (free !== null && input.size > free) throw overQuota();
}
