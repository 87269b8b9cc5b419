import { z } from 'zod';
import type { User } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import type { Body } from '../../http/endpoint.ts';
import { validate } from '../../http/validate.ts';
import { getSettings, type Settings } from '../../settings/service.ts';
import { logoUrl } from '../../setup/schemas.ts';
import { ADMIN_IMAGE_MAX_BYTES, FAVICON_PX, isBrandingPath, storeFavicon, storeLogo } from '../../site/branding.ts';
import { requireAdmin } from '../guard.ts';
import { applySettings, parseGroupUpdate, text } from './group.ts';

export const THEME_MODES = ['system', 'light', 'dark'] as const;
export const EMOJI_SETS = ['twemoji', 'applemoji'] as const;
const IMAGE_SLOTS = ['logo_horizontal', 'logo_horizontal_dark', 'favicon'] as const;

const FIELDS = {
  app_name: text('app name', 60).min(1, 'The app name field is required.'),
  app_description: text('description', 300),
  logo_horizontal: logoUrl,
  logo_horizontal_dark: logoUrl,
  favicon: z.string({ error: 'The icon must be text.' }).refine((v) => v === '' || isBrandingPath(v), 'Upload the icon here; it cannot be set to an address.'),
  brand_color: z
    .string({ error: 'The brand colour must be text.' })
    .trim()
    .regex(/^(#[0-9a-fA-F]{6})?$/, 'The brand colour must look like #4f46e5.')
    .transform((v) => v.toLowerCase()),
  default_theme_mode: z.enum(THEME_MODES, { error: 'The default theme must be system, light or dark.' }),
  default_emoji: z.enum(EMOJI_SETS, { error: 'The emoji set must be twemoji or applemoji.' }),
};

function present(s: Settings) {
  return {
    data: {
      id: 'appearance',
      type: 'settings',
      attributes: {
        app_name: s.app_name,
        app_description: s.app_description,
        logo_horizontal: s.logo_horizontal,
        logo_horizontal_dark: s.logo_horizontal_dark,
        favicon: s.favicon,
        brand_color: s.brand_color,
        default_theme_mode: s.default_theme_mode,
        default_emoji: s.default_emoji,
      },
    },
    meta: { theme_modes: THEME_MODES, emoji_sets: EMOJI_SETS, image_max_bytes: ADMIN_IMAGE_MAX_BYTES, favicon_px: FAVICON_PX },
  };
}

export type AppearanceSettings = ReturnType<typeof present>;

export async function getAppearance(ctx: AppContext, user: User): Promise<AppearanceSettings> {
  requireAdmin(user);
  return present(await getSettings(ctx));
}

/** App name and description, logos, icon, brand colour, default theme and emoji set. */
export async function updateAppearance(ctx: AppContext, user: User, body: Body): Promise<AppearanceSettings> {
  requireAdmin(user);
  const input = parseGroupUpdate(FIELDS, body);
  await applySettings(ctx, user, 'appearance', await getSettings(ctx), input);
  return present(await getSettings(ctx));
}

/**
 * An uploaded logo (light or dark) or icon, applied at once: multipart with `slot` and `image`.
 * The image is checked by its bytes (branding.ts), at most ADMIN_IMAGE_MAX_BYTES (413 over it).
 */
export async function uploadAppearanceImage(ctx: AppContext, user: User, body: Body): Promise<AppearanceSettings> {
  requireAdmin(user);
  const { slot } = validate(z.object({ slot: z.enum(IMAGE_SLOTS, { error: 'The slot must be logo_horizontal, logo_horizontal_dark or favicon.' }) }), body);
  const options = { maxBytes: ADMIN_IMAGE_MAX_BYTES, field: 'image' };
  const path = slot === 'favicon' ? await storeFavicon(ctx, body.image, options) : await storeLogo(ctx, body.image, options);
  await applySettings(ctx, user, 'appearance', await getSettings(ctx), { [slot]: path });
  return present(await getSettings(ctx));
}
