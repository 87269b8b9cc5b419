import { z } from 'zod';
import type { User } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { validationError } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { writeSettings, type Settings } from '../../settings/service.ts';
import { recordAudit } from '../audit.ts';

/**
 * The admin's settings screen edits the settings in groups (appearance, homepage, email, others, …).
 * An update names only the fields it changes; a field that is not the group's is refused with a 422
 * naming it (a typo must not look saved), and nothing is written then.
 */
export function parseGroupUpdate<T extends z.ZodRawShape>(fields: T, body: Record<string, unknown>): Partial<z.infer<z.ZodObject<T>>> {
  const unknown = Object.keys(body).filter((key) => !Object.hasOwn(fields, key));
  if (unknown.length) {
    throw validationError(Object.fromEntries(unknown.slice(0, 10).map((key) => [key.slice(0, 60), [`${key.slice(0, 60)} is not a setting of this group.`]])));
  }
  const parsed = validate(z.object(fields).partial(), body) as Record<string, unknown>;
  // A field's default must not fill in a field the update did not name.
  return Object.fromEntries(Object.keys(body).map((key) => [key, parsed[key]])) as Partial<z.infer<z.ZodObject<T>>>;
}

/**
 * Writes the settings whose value differs from `current`, with one `setting.update` audit record
 * (before and after of the changed keys; secrets redacted by name) in the same transaction. The
 * settings are read per request everywhere, so the change applies at once. Answers the changed keys.
 */
export async function applySettings(ctx: AppContext, actor: User, group: string, current: Settings, next: Partial<Settings>): Promise<string[]> {
  const changed = (Object.keys(next) as (keyof Settings)[]).filter((key) => next[key] !== undefined && JSON.stringify(current[key]) !== JSON.stringify(next[key]));
  if (!changed.length) return [];
  const before = Object.fromEntries(changed.map((key) => [key, current[key]]));
  const after = Object.fromEntries(changed.map((key) => [key, next[key]]));
  await ctx.db.transaction().execute(async (trx) => {
    await writeSettings(trx, after as Partial<Settings>);
    await recordAudit(ctx, trx, actor, { action: 'setting.update', target_type: 'setting', target_id: group, target_label: group, before, after });
  });
  return changed;
}

/** A JSON true or false; anything else (a string "yes", 1) is refused. */
export const flag = (field: string) => z.boolean({ error: `The ${field} must be true or false.` });

/** Trimmed text of at most `max` characters. */
export const text = (field: string, max: number) =>
  z.string({ error: `The ${field} must be text.` }).trim().max(max, `The ${field} may not be greater than ${max} characters.`);

/** A whole number between min and max. */
export const wholeNumber = (field: string, min: number, max: number, unit = '') =>
  z
    .number({ error: `The ${field} must be a number.` })
    .int(`The ${field} must be a whole number.`)
    .min(min, min === 0 ? `The ${field} may not be negative.` : `The ${field} must be at least ${min}${unit}.`)
    .max(max, `The ${field} may not be greater than ${max}${unit}.`);
