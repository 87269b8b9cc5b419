import { z } from 'zod';
import type { User } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { validationError } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { getSettings, writeSettings, type Settings } from '../../settings/service.ts';
import { PUBLISHER_ID, SLOT_ID } from '../../site/ads.ts';
import { recordAudit } from '../audit.ts';
import { requireAdmin } from '../guard.ts';
import { changedFields } from './changes.ts';

/**
 * The settings screen's adsense tab: a publisher id and the ad slots of the public pages' header
 * and footer (src/server/site/ads.ts shows them, after the visitor's cookie consent).
 */
const slot = (where: string) =>
  z
    .string({ error: `The ${where} slot must be text.` })
    .trim()
    .refine((v) => v === '' || SLOT_ID.test(v), `The ${where} slot must be the ad unit's 10-digit id, or empty.`)
    .optional();

export const AdsenseSettingsInput = z.strictObject({
  enabled: z.boolean({ error: 'The enabled field must be true or false.' }).optional(),
  publisher_id: z
    .string({ error: 'The publisher id must be text.' })
    .trim()
    .refine((v) => v === '' || PUBLISHER_ID.test(v), 'The publisher id must look like ca-pub- followed by 16 digits.')
    .optional(),
  header_slot: slot('header'),
  footer_slot: slot('footer'),
});

const present = (s: Settings) => ({
  enabled: s.adsense?.enabled === true,
  publisher_id: s.adsense?.publisher_id ?? '',
  header_slot: s.adsense?.header_slot ?? '',
  footer_slot: s.adsense?.footer_slot ?? '',
});

export async function getAdsenseSettings(ctx: AppContext, user: User) {
  requireAdmin(user);
  return { data: present(await getSettings(ctx)) };
}

export async function putAdsenseSettings(ctx: AppContext, user: User, body: unknown) {
  requireAdmin(user);
  const input = validate(AdsenseSettingsInput, body);
  await ctx.db.transaction().execute(async (trx) => {
    const before = present(await getSettings({ ...ctx, db: trx }));
    const after = { ...before, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
    if (after.enabled && !after.publisher_id) throw validationError({ publisher_id: ['Enter the publisher id to show ads.'] });
    await writeSettings(trx, { adsense: after });
    const changes = changedFields(before, after);
    if (changes) await recordAudit(ctx, trx, user, { action: 'setting.update', target_type: 'setting', target_id: 'adsense', target_label: 'AdSense', ...changes });
  });
  return getAdsenseSettings(ctx, user);
}
