import { atom } from 'nanostores';
import type { ThemeMode } from '../../db/schema.ts';
import { saveSettings } from './user.ts';

export type { ThemeMode };

function systemDark(): boolean {
  return typeof matchMedia !== 'undefined' && matchMedia('(prefers-color-scheme: dark)').matches;
}

/** Whether the page is dark right now (the inline script in Base.astro set it before first paint). */
export const $dark = atom(typeof document !== 'undefined' && document.documentElement.classList.contains('dark'));

export function applyTheme(mode: ThemeMode): void {
  const dark = mode === 'dark' || (mode === 'system' && systemDark());
  document.documentElement.classList.toggle('dark', dark);
  $dark.set(dark);
  localStorage.setItem('theme_mode', mode);
  document.documentElement.dataset.themeUser = mode;
}

/** The sidebar toggle: flips light and dark and saves the choice to the user's settings. */
export function toggleTheme(): Promise<boolean> {
  const mode: ThemeMode = $dark.get() ? 'light' : 'dark';
  applyTheme(mode);
  return saveSettings({ theme_mode: mode });
}
