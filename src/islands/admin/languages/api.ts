import { api } from '../../../stores/api.ts';

/** The admin's language endpoints (/api/admin/languages), typed as the server presents them. */
export interface AdminLanguage {
  code: string;
  name: string;
  rtl: boolean;
  built_in: boolean;
  default: boolean;
  strings: number;
  changed: number;
  untranslated: number;
}

export interface TranslationString {
  key: string;
  english: string;
  value: string;
  default: string;
  changed: boolean;
  untranslated: boolean;
  placeholders: string[];
}

export type StringFilter = 'all' | 'changed' | 'untranslated';

interface Page<T> {
  data: { id: string; attributes: T }[];
  meta: { next_cursor: string | null; total?: number; changed?: number; untranslated?: number };
}

const base = (code: string) => `/api/admin/languages/${encodeURIComponent(code)}`;

/** Every language: the list is short, but paged like every admin list, so follow the cursor. */
export async function fetchLanguages(): Promise<AdminLanguage[]> {
  const all: AdminLanguage[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<AdminLanguage> = await api.get(`/api/admin/languages?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    all.push(...page.data.map((d) => d.attributes));
    cursor = page.meta.next_cursor;
  } while (cursor);
  return all;
}

export async function createLanguage(input: { code: string; name: string; rtl: boolean }): Promise<AdminLanguage> {
  return (await api.post<{ data: { attributes: AdminLanguage } }>('/api/admin/languages', input)).data.attributes;
}

export async function updateLanguage(code: string, patch: { name?: string; rtl?: boolean; default?: true }): Promise<AdminLanguage> {
  return (await api.patch<{ data: { attributes: AdminLanguage } }>(base(code), patch)).data.attributes;
}

export function deleteLanguage(code: string): Promise<void> {
  return api.delete(base(code));
}

export async function fetchStrings(code: string, query: { search: string; filter: StringFilter; cursor: string | null }) {
  const params = new URLSearchParams({ limit: '100', filter: query.filter });
  if (query.search) params.set('search', query.search);
  if (query.cursor) params.set('cursor', query.cursor);
  const page = await api.get<Page<TranslationString>>(`${base(code)}/strings?${params}`);
  return { strings: page.data.map((d) => d.attributes), next: page.meta.next_cursor, total: page.meta.total ?? 0 };
}

/** Saves texts (null resets a key to its built-in text); answers the keys as they are now. */
export async function saveStrings(code: string, strings: Record<string, string | null>) {
  const res = await api.post<{ data: { attributes: TranslationString }[] }>(`${base(code)}/strings`, { strings, _method: 'put' });
  return res.data.map((d) => d.attributes);
}
