import { z } from 'zod';
import type { User } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import type { Body } from '../../http/endpoint.ts';
import { getSettings, type Settings } from '../../settings/service.ts';
import { requireAdmin } from '../guard.ts';
import { applySettings, flag, parseGroupUpdate, text } from './group.ts';

/** The icons a feature card may show (src/components/astro/FeatureIcon.astro draws them). */
export const HOME_FEATURE_ICONS = ['upload', 'share', 'team', 'shield', 'folder', 'file', 'image'] as const;
export const MAX_HOME_FEATURES = 8;

const FEATURE = z.strictObject(
  {
    icon: z.enum(HOME_FEATURE_ICONS, { error: `The icon must be one of ${HOME_FEATURE_ICONS.join(', ')}.` }),
    title: text('card title', 80).min(1, 'The card title field is required.'),
    text: text('card text', 300),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'A feature card has only an icon, a title and a text.' : 'A feature card must have an icon, a title and a text.') },
);

/** The homepage's texts (empty: the built-in ones in the visitor's language) and which sections show. */
const FIELDS = {
  home_title: text('title', 120),
  home_subtitle: text('subtitle', 300),
  home_features: z.array(FEATURE, { error: 'The feature cards must be a list.' }).max(MAX_HOME_FEATURES, `At most ${MAX_HOME_FEATURES} feature cards.`),
  home_show_preview: flag('preview switch'),
  home_show_features: flag('feature cards switch'),
  home_show_cta: flag('call to action switch'),
  home_show_pricing: flag('pricing table switch'),
};

function present(s: Settings) {
  return {
    data: {
      id: 'homepage',
      type: 'settings',
      attributes: {
        home_title: s.home_title,
        home_subtitle: s.home_subtitle,
        home_features: s.home_features,
        home_show_preview: s.home_show_preview,
        home_show_features: s.home_show_features,
        home_show_cta: s.home_show_cta,
        home_show_pricing: s.home_show_pricing,
      },
    },
    meta: { icons: HOME_FEATURE_ICONS, max_features: MAX_HOME_FEATURES },
  };
}

export type HomepageSettings = ReturnType<typeof present>;

export async function getHomepage(ctx: AppContext, user: User): Promise<HomepageSettings> {
  requireAdmin(user);
  return present(await getSettings(ctx));
}

export async function updateHomepage(ctx: AppContext, user: User, body: Body): Promise<HomepageSettings> {
  requireAdmin(user);
  const input = parseGroupUpdate(FIELDS, body);
  await applySettings(ctx, user, 'homepage', await getSettings(ctx), input);
  return present(await getSettings(ctx));
}
