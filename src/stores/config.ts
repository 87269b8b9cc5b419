import { atom } from 'nanostores';
import type { ClientConfig } from '../server/config/client-config.ts';

export type { ClientConfig };

/** The config object of SPEC §3, read once from the JSON the server put into every page. */
function readInjected(): ClientConfig | null {
  if (typeof document === 'undefined') return null;
  const el = document.getElementById('app-config');
  if (!el?.textContent) return null;
  return JSON.parse(el.textContent) as ClientConfig;
}

export const $config = atom<ClientConfig | null>(readInjected());

export function config(): ClientConfig {
  const value = $config.get();
  if (!value) throw new Error('The page has no #app-config.');
  return value;
}
