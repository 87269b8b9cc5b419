import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { loadSharp } from '../images/sharp.ts';
import { z } from 'zod';
import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { UNSAFE_PERSON_NAME } from '../files/names.ts';
import { payloadTooLarge, validationError } from '../http/errors.ts';
import { validate } from '../http/validate.ts';
import { AVATAR_SIZES } from './presenter.ts';
import { findUserById, updateUser } from './queries.ts';

const shortText = (label: string, max: number) =>
  z
    .string({ error: `The ${label} must be text.` })
    .trim()
    .max(max, `The ${label} may not be greater than ${max} characters.`)
    .refine((v) => !UNSAFE_PERSON_NAME.test(v), `The ${label} may not contain control or text-direction characters.`);

/** Profile fields a user may auto-save, each with its own rule. */
const FIELDS = {
  name: shortText('name', 120).min(1, 'The name field is required.'),
  first_name: shortText('first name', 80),
  last_name: shortText('last name', 80),
  theme_mode: z.enum(['light', 'dark', 'system'], { error: 'The theme mode must be light, dark or system.' }),
  emoji_type: z.enum(['twemoji', 'applemoji'], { error: 'The emoji type must be twemoji or applemoji.' }),
  notification_sound: z.enum(['on', 'off'], { error: 'The notification sound must be on or off.' }),
} as const;
type Field = keyof typeof FIELDS;

export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

/**
 * Accepts both shapes the spec's client sends: `{ name: field, value }` (auto-save text) and
 * `{ [field]: value, ... }` (auto-save input, settings update). Unknown fields are refused.
 */
export function parseProfilePatch(body: Record<string, unknown>): Partial<Record<Field, string>> {
  const pairs: [string, unknown][] =
    typeof body.name === 'string' && 'value' in body && Object.keys(body).every((k) => k === 'name' || k === 'value')
      ? [[body.name, body.value]]
      : Object.entries(body);
  if (pairs.length === 0) throw validationError({ _: ['Nothing to update.'] });
  const patch: Partial<Record<Field, string>> = {};
  for (const [field, value] of pairs) {
    if (!Object.hasOwn(FIELDS, field)) throw validationError({ [field]: [`The field ${field.slice(0, 40)} cannot be changed here.`] });
    patch[field as Field] = validate(z.object({ [field]: FIELDS[field as Field] }), { [field]: value })[field] as string;
  }
  return patch;
}

export async function updateProfile(ctx: AppContext, user: User, patch: Partial<Record<Field, string>>): Promise<User> {
  const { notification_sound: sound, ...rest } = patch;
  const values = { ...rest, first_name: patch.first_name ?? undefined, last_name: patch.last_name ?? undefined, notification_sound: sound === undefined ? undefined : Number(sound === 'on') };
  await updateUser(ctx, user.id, values as never);
  return (await findUserById(ctx, user.id)) ?? user;
}

/**
 * Stores a new avatar: the bytes must decode as an image (the client's type is not trusted), and
 * are re-encoded to three square WebP sizes, which also strips any metadata.
 */
export async function updateAvatar(ctx: AppContext, user: User, file: unknown): Promise<User> {
  if (!(file instanceof File)) throw validationError({ avatar: ['The avatar must be an image file.'] });
  if (file.size > MAX_AVATAR_BYTES) throw payloadTooLarge('The avatar may not be greater than 5 MB.');
  const input = Buffer.from(await file.arrayBuffer());
  const sharp = await loadSharp();
  try {
    const meta = await sharp(input, { limitInputPixels: 40_000_000 }).metadata();
    if (!meta.width || !meta.height || !['jpeg', 'png', 'webp', 'gif', 'avif', 'heif'].includes(meta.format ?? '')) throw new Error('unsupported');
  } catch {
    throw validationError({ avatar: ['The avatar must be a PNG, JPEG, WebP or GIF image.'] });
  }
  const version = randomBytes(8).toString('hex');
  for (const [size, px] of Object.entries(AVATAR_SIZES)) {
    const webp = await sharp(input, { limitInputPixels: 40_000_000 }).rotate().resize(px, px, { fit: 'cover' }).webp({ quality: 82 }).toBuffer();
    await ctx.blobs.put(`avatars/${user.id}/${version}-${size}.webp`, Readable.from([webp]));
  }
  const previous = user.avatar_key;
  await updateUser(ctx, user.id, { avatar_key: version });
  if (previous) for (const size of Object.keys(AVATAR_SIZES)) await ctx.blobs.delete(`avatars/${user.id}/${previous}-${size}.webp`);
  return (await findUserById(ctx, user.id)) ?? user;
}
