import { z } from 'zod';
import type { User } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import type { Body } from '../../http/endpoint.ts';
import { validationError } from '../../http/errors.ts';
import { findLanguage, listLanguages, type Language } from '../../i18n/languages.ts';
import { getSettings, type Settings } from '../../settings/service.ts';
import { subscriptionTypeField } from '../../billing/subscription-type.ts';
import { requireAdmin } from '../guard.ts';
import { applySettings, flag, parseGroupUpdate, wholeNumber } from './group.ts';

const MB = 1024 ** 2;
/** 1 PiB: more than any disk, and still exact as a JavaScript number. */
const MAX_BYTES = 1024 ** 5;
export const CHUNK_MIN_BYTES = 1 * MB;
export const CHUNK_MAX_BYTES = 512 * MB;
const MAX_BLACKLIST = 200;

/** An extension (`exe`, `.php`) or a MIME type, exact or a whole family (`video/*`), as uploads/limits.ts matches them. */
const BLACKLIST_ENTRY = /^(\.?[a-z0-9][a-z0-9_+-]{0,31}|[a-z0-9][a-z0-9.+_-]{0,63}\/(\*|[a-z0-9][a-z0-9.+_-]{0,63}))$/;

const FIELDS = {
  /** Per user, 0 for no limit (until plans give users their own). */
  default_storage_limit_bytes: wholeNumber('default storage', 0, MAX_BYTES),
  /** The largest single file, 0 for no limit. */
  upload_limit_bytes: wholeNumber('upload limit', 0, MAX_BYTES),
  chunk_size_bytes: wholeNumber('chunk size', CHUNK_MIN_BYTES, CHUNK_MAX_BYTES, ' bytes'),
  mimetypes_blacklist: z
    .array(
      z
        .string({ error: 'Each blocked type must be text.' })
        .trim()
        .toLowerCase()
        .regex(BLACKLIST_ENTRY, 'A blocked type is an extension (exe) or a MIME type (application/x-msdownload, video/*).'),
      { error: 'The blocked types must be a list.' },
    )
    .max(MAX_BLACKLIST, `At most ${MAX_BLACKLIST} blocked types.`)
    .transform((entries) => [...new Set(entries.map((e) => (e.includes('/') ? e : e.replace(/^\./, ''))))]),
  trash_retention_days: wholeNumber('trash retention', 0, 3650, ' days'),
  registration_open: flag('registration switch'),
  email_verification_required: flag('email verification switch'),
  /** Checked against the available languages (built-in and added) when saved. */
  locale: z.string({ error: 'The default language must be a language code.' }).trim().min(1, 'The default language must be a language code.').max(35, 'The default language must be a language code.'),
  cookie_notice: flag('cookie notice switch'),
  max_team_members: wholeNumber('team member limit', 1, 100_000),
  team_invitation_expiry_days: wholeNumber('invitation expiry in days', 1, 365),
  /** How the instance charges (SPEC §4): none, fixed plans or metered plans (billing/subscription-type.ts). */
  subscription_type: subscriptionTypeField,
  /** On S3 storage: downloads redirect to a short-lived presigned URL of the bucket (downloads/file.ts). */
  s3_presigned_downloads: flag('presigned downloads switch'),
  /** Every route but the admin's answers 503 with Retry-After (site/maintenance.ts). */
  maintenance_mode: flag('maintenance switch'),
  maintenance_retry_after_seconds: wholeNumber('expected maintenance time', 60, 7 * 24 * 3600, ' seconds'),
};

function present(ctx: AppContext, s: Settings, languages: Language[]) {
  return {
    data: {
      id: 'others',
      type: 'settings',
      attributes: {
        default_storage_limit_bytes: s.default_storage_limit_bytes,
        upload_limit_bytes: s.upload_limit_bytes,
        chunk_size_bytes: s.chunk_size_bytes,
        mimetypes_blacklist: s.mimetypes_blacklist,
        trash_retention_days: s.trash_retention_days,
        registration_open: s.registration_open,
        email_verification_required: s.email_verification_required,
        locale: s.locale,
        cookie_notice: s.cookie_notice,
        max_team_members: s.max_team_members,
        team_invitation_expiry_days: s.team_invitation_expiry_days,
        subscription_type: s.subscription_type,
        s3_presigned_downloads: s.s3_presigned_downloads,
        maintenance_mode: s.maintenance_mode,
        maintenance_retry_after_seconds: s.maintenance_retry_after_seconds,
      },
    },
    meta: { locales: languages.map((l) => ({ code: l.code, name: l.name })), chunk_min_bytes: CHUNK_MIN_BYTES, chunk_max_bytes: CHUNK_MAX_BYTES, storage_driver: ctx.config.storage.driver },
  };
}

export type OtherSettings = ReturnType<typeof present>;

export async function getOtherSettings(ctx: AppContext, user: User): Promise<OtherSettings> {
  requireAdmin(user);
  return present(ctx, await getSettings(ctx), await listLanguages(ctx.db));
}

/** Storage and upload limits, blocked types, trash retention, sign-up, default language, cookie notice, maintenance mode. */
export async function updateOtherSettings(ctx: AppContext, user: User, body: Body): Promise<OtherSettings> {
  requireAdmin(user);
  const input = parseGroupUpdate(FIELDS, body);
  const languages = await listLanguages(ctx.db);
  if (input.locale !== undefined) {
    const language = findLanguage(languages, input.locale);
    if (!language) throw validationError({ locale: [`The default language must be one of ${languages.map((l) => l.code).join(', ')}.`] });
    input.locale = language.code;
  }
  await applySettings(ctx, user, 'others', await getSettings(ctx), input as Partial<Settings>);
  return present(ctx, await getSettings(ctx), languages);
}
