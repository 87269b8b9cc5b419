import { z } from 'zod';
import type { User } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { storageUsage } from '../../files/storage.ts';
import { notFound, validationError } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { getSettings } from '../../settings/service.ts';
import { adminRestrictionsFor, billingLimited, restrictionOverrides, RESTRICTION_FLAGS, type Restrictions } from '../../users/restrictions.ts';
import { recordAudit } from '../audit.ts';
import { requireAdmin } from '../guard.ts';
import { storageLimitField } from './schemas.ts';

/**
 * The Storage tab of the admin's user screen: the user's usage by kind, their storage limit (null:
 * the instance default, 0: no limit, else bytes) and the four restriction flags of SPEC §6. A limit
 * below what the user stores now is allowed: the answer carries a warning, and their uploads are
 * refused (423 `storage_limit_exceeded`) until they free space.
 */


const flag = (name: string) => z.boolean({ error: `${name} must be true or false.` }).optional();

const StorageInput = z.strictObject(
  {
    storage_limit_bytes: storageLimitField.optional(),
    restrictions: z
      .strictObject(Object.fromEntries(RESTRICTION_FLAGS.map((key) => [key, flag(key)])) as Record<keyof Restrictions, ReturnType<typeof flag>>, {
        error: (issue) =>
          issue.code === 'unrecognized_keys' ? `Unknown restriction: ${issue.keys.join(', ')}. Known: ${RESTRICTION_FLAGS.join(', ')}.` : 'The restrictions must be an object of flags.',
      })
      .optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}.` : 'The body must be an object.') },
);

/** The user an admin acts on: 404 when there is none, or when it is being deleted. */
async function requireTarget(ctx: AppContext, id: string | undefined): Promise<User> {
  const user = id && id.length <= 100 ? await ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
  if (!user || user.deletion_started_at) throw notFound('The user was not found.');
  return user;
}

async function present(ctx: AppContext, user: User, warnings: { code: string; message: string }[] = []) {
  const [settings, usage] = await Promise.all([getSettings(ctx), storageUsage(ctx, user)]);
  const capacity = usage.data.attributes.capacity;
  return {
    data: {
      id: user.id,
      type: 'user-storage',
      attributes: {
        email: user.email,
        name: user.name,
        /** The user's own limit: null for the instance default, 0 for none. */
        storage_limit_bytes: user.storage_limit_bytes === null ? null : Number(user.storage_limit_bytes),
        default_storage_limit_bytes: settings.default_storage_limit_bytes,
        /** What applies: the own limit, else the fixed plan's, else the default; 0 for none. */
        capacity,
        used: usage.data.attributes.used,
        /** The admin's own flags; billing's limit (3 failed payments) is apart and lifts by payment only. */
        restrictions: adminRestrictionsFor(user),
        billing_limited: billingLimited(user),
      },
      relationships: { usage: { data: usage.data } },
    },
    meta: { warnings },
  };
}

export type UserStorageResource = Awaited<ReturnType<typeof present>>;

export async function getUserStorage(ctx: AppContext, actor: User, id: string | undefined): Promise<UserStorageResource> {
  requireAdmin(actor);
  return present(ctx, await requireTarget(ctx, id));
}

/** Changes the limit and/or some flags; each change is audited with its values before and after. */
export async function updateUserStorage(ctx: AppContext, actor: User, id: string | undefined, body: unknown): Promise<UserStorageResource> {
  requireAdmin(actor);
  const input = validate(StorageInput, body);
  if (input.storage_limit_bytes === undefined && input.restrictions === undefined) {
    throw validationError({ _: ['Send storage_limit_bytes or restrictions to change.'] });
  }
  await requireTarget(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    // Read again inside the transaction: the audit's "before" is what this change replaced.
    const user = await trx.selectFrom('users').selectAll().where('id', '=', id!).executeTakeFirst();
    if (!user || user.deletion_started_at) throw notFound('The user was not found.');
    const at = ctx.clock.now().toISOString();
    const target = { target_type: 'user', target_id: user.id, target_label: user.email } as const;
    const before = user.storage_limit_bytes === null ? null : Number(user.storage_limit_bytes);
    if (input.storage_limit_bytes !== undefined && input.storage_limit_bytes !== before) {
      await trx.updateTable('users').set({ storage_limit_bytes: input.storage_limit_bytes, updated_at: at }).where('id', '=', user.id).execute();
      await recordAudit(ctx, trx, actor, { action: 'user.quota', ...target, before: { storage_limit_bytes: before }, after: { storage_limit_bytes: input.storage_limit_bytes } });
    }
    if (input.restrictions) {
      const was = adminRestrictionsFor(user);
      const now: Restrictions = { ...was };
      for (const key of RESTRICTION_FLAGS) if (input.restrictions[key] !== undefined) now[key] = input.restrictions[key];
      const changed = RESTRICTION_FLAGS.filter((key) => was[key] !== now[key]);
      if (changed.length) {
        await trx.updateTable('users').set({ restrictions: restrictionOverrides(now, user.restrictions), updated_at: at }).where('id', '=', user.id).execute();
        const pick = (flags: Restrictions) => Object.fromEntries(changed.map((key) => [key, flags[key]]));
        await recordAudit(ctx, trx, actor, { action: 'user.restrictions', ...target, before: pick(was), after: pick(now) });
      }
    }
  });
  const user = await requireTarget(ctx, id);
  const resource = await present(ctx, user);
  const { capacity, used } = resource.data.attributes;
  if (capacity > 0 && used > capacity) {
    resource.meta.warnings.push({
      code: 'quota_below_usage',
      message: 'The new limit is below what this user stores now: their uploads are refused until they free space.',
    });
  }
  return resource;
}
