import { atom } from 'nanostores';
import { useStore } from '@nanostores/react';
import { translate } from '../i18n/translate.ts';
import { readBootData } from './boot.ts';

export { translate };

/**
 * The effective catalogue (flattened keys): from the app's document when it carries it, else
 * fetched from /translations/{locale}. Null until loaded.
 */
export const $translations = atom<Record<string, string> | null>(readBootData<Record<string, string>>('app-translations'));

export async function loadTranslations(locale: string): Promise<void> {
  try {
    const res = await fetch(`/translations/${encodeURIComponent(locale)}`, { headers: { Accept: 'application/json' } });
    if (!res.ok) throw new Error(String(res.status));
    $translations.set((await res.json()) as Record<string, string>);
  } catch (error) {
    // The spec: a translation load that gets no answer reloads the page; a refusal falls back to keys.
    if (error instanceof TypeError) {
      setTimeout(() => location.reload(), 3000);
      return;
    }
    $translations.set({});
  }
}

export type Translate = (key: string, params?: Record<string, string | number>) => string;

export function t(key: string, params?: Record<string, string | number>): string {
  return translate($translations.get(), key, params);
}

export function useT(): Translate {
  const catalogue = useStore($translations);
  return (key, params) => translate(catalogue, key, params);
}
