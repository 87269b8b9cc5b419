import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../../db/index.ts';
import type { AppContext } from '../../context.ts';
import { hashSecret } from '../tokens.ts';

/**
 * Ten single-use codes for when the authenticator is lost: 60 random bits each, shown once as
 * `xxxx-xxxx-xxxx`, stored only as hashes. Using one is a conditional UPDATE, so a code passes once
 * even when two requests race with it.
 */
export const RECOVERY_CODE_COUNT = 10;
/** Fewer left than this and the settings screen suggests making new ones. */
export const RECOVERY_CODES_LOW = 3;

/** Spaces and dashes are only for reading; case does not matter. */
export const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
export const RECOVERY_CODE = /^[a-z2-7]{12}$/;

const newCode = () => {
  const raw = encodeBase32LowerCaseNoPadding(randomBytes(8)).slice(0, 12);
  return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8)}`;
};

/** Replaces the account's codes (inside the caller's transaction) and answers the new ones, in plain text, once. */
export async function replaceRecoveryCodes(ctx: AppContext, db: Kysely<Database>, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  const now = ctx.clock.now().toISOString();
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('two_factor_recovery_codes')
    .values(codes.map((code) => ({ id: randomUUID(), user_id: userId, code_hash: hashSecret(normaliseRecoveryCode(code)), created_at: now })))
    .execute();
  return codes;
}

export async function redeemRecoveryCode(ctx: AppContext, userId: string, code: string): Promise<boolean> {
  const row = await ctx.db
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: ctx.clock.now().toISOString() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashSecret(normaliseRecoveryCode(code)))
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function recoveryCodesLeft(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('two_factor_recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
