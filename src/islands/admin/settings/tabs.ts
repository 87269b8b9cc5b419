/**
 * The tabs of the admin's settings screen (/admin/settings/:tab?), in their order; no tab opens the
 * first. Plain data: the server's 404 check (src/islands/app/routes.ts) reads it too.
 */
export const SETTINGS_TABS = ['appearance', 'index', 'environment', 'others', 'sign-in', 'adsense', 'server'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

export function isSettingsTab(value: string | undefined): value is SettingsTab {
  return (SETTINGS_TABS as readonly string[]).includes(value ?? '');
}
