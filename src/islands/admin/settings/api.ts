import type { AppearanceSettings } from '../../../server/admin/settings/appearance.ts';
import type { EmailSettings } from '../../../server/admin/settings/email.ts';
import type { HomepageSettings } from '../../../server/admin/settings/homepage.ts';
import type { OtherSettings } from '../../../server/admin/settings/others.ts';
import { api } from '../../../stores/api.ts';
import { $config } from '../../../stores/config.ts';

export type { AppearanceSettings, EmailSettings, HomepageSettings, OtherSettings };

/** One settings group as the API answers it: its values and the choices its form offers. */
export interface GroupDocument {
  data: { id: string; attributes: object };
  meta: object;
}

export const GROUP_URL = {
  appearance: '/api/admin/settings/appearance',
  homepage: '/api/admin/settings/homepage',
  email: '/api/admin/settings/email',
  others: '/api/admin/settings/others',
} as const;
export type Group = keyof typeof GROUP_URL;

export const loadGroup = <D extends GroupDocument>(group: Group) => api.get<D>(GROUP_URL[group]);

/** Saves the changed fields of a group (PUT, as the spec's clients send it: POST with `_method`). */
export const saveGroup = <D extends GroupDocument>(group: Group, changes: Record<string, unknown>) => api.post<D>(GROUP_URL[group], { ...changes, _method: 'put' });

export function uploadAppearanceImage(slot: 'logo_horizontal' | 'logo_horizontal_dark' | 'favicon', file: File) {
  const form = new FormData();
  form.append('slot', slot);
  form.append('image', file);
  return api.post<AppearanceSettings>(`${GROUP_URL.appearance}/images`, form);
}

export function sendTestMail(testEmail: string, changes: Record<string, unknown>) {
  return api.post<{ data: { sent_to: string } }>(`${GROUP_URL.email}/test`, { ...changes, test_email: testEmail });
}

/**
 * What the open page shows of a saved group follows at once (the sidebar's name and logo, the
 * brand colour, the cookie notice), as the next page load would show it.
 */
export function showSavedInPage(saved: GroupDocument): void {
  const config = $config.get();
  if (!config) return;
  if (saved.data.id === 'appearance') {
    const a = (saved as AppearanceSettings).data.attributes;
    $config.set({
      ...config,
      defaultThemeMode: a.default_theme_mode,
      defaultEmoji: a.default_emoji,
      app: { name: a.app_name, description: a.app_description, logo: { horizontal: a.logo_horizontal, horizontal_dark: a.logo_horizontal_dark } },
    });
    showBrandColor(a.brand_color);
  } else if (saved.data.id === 'others') {
    const o = (saved as OtherSettings).data.attributes;
    $config.set({ ...config, cookieNotice: o.cookie_notice, registrationOpen: o.registration_open, emailVerificationRequired: o.email_verification_required, subscriptionType: o.subscription_type, isSaaS: o.subscription_type !== 'none' });
  }
}

/** The same rule as the layout's (src/layouts/Base.astro): a strict #rrggbb replaces the token sheet's brand colour. */
function showBrandColor(color: string): void {
  let style = document.getElementById('brand-color');
  if (!/^#[0-9a-f]{6}$/i.test(color)) return void style?.remove();
  if (!style) {
    style = document.createElement('style');
    style.id = 'brand-color';
    document.head.append(style);
  }
  style.textContent = `:root,.dark{--brand:${color};--ring:${color};--brand-strong:${color};}`;
}
