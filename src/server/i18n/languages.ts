import type { Kysely } from 'kysely';
import type { Database } from '../../../db/index.ts';
import { BUILT_IN_LANGUAGES, isBuiltIn } from './builtin.ts';

/** A language users may pick, as every request sees it (read from the database each time). */
export interface Language {
  code: string;
  name: string;
  rtl: boolean;
  builtIn: boolean;
  /**
   * Which strings this is: the row's creation time and its count of string changes. The catalogue
   * cache compares it; a language deleted and added again under the same code is a new revision.
   */
  revision: string;
}

/** Longest tag we keep: language, script, region and a variant or two; extensions are not ours to store. */
export const MAX_CODE_LENGTH = 35;

/** Every available language, built-in first, then by name. One small query, made per request. */
export async function listLanguages(db: Kysely<Database>): Promise<Language[]> {
  const rows = await db.selectFrom('languages').select(['code', 'name', 'rtl', 'version', 'created_at']).execute();
  const languages = rows.map((row) => ({ code: row.code, name: row.name, rtl: row.rtl === 1, builtIn: isBuiltIn(row.code), revision: `${row.created_at}#${row.version}` }));
  // The catalogues in messages/ are always there, even on a database whose rows were lost.
  for (const [code, name] of Object.entries(BUILT_IN_LANGUAGES)) {
    if (!languages.some((l) => l.code === code)) languages.push({ code, name, rtl: false, builtIn: true, revision: 'built-in' });
  }
  return languages.sort((a, b) => Number(b.builtIn) - Number(a.builtIn) || a.name.localeCompare(b.name) || a.code.localeCompare(b.code));
}

/** The language a code names, ignoring case (`pt-br` finds `pt-BR`). */
export function findLanguage<L extends { code: string }>(languages: readonly L[], code: string | null | undefined): L | undefined {
  if (!code) return undefined;
  const wanted = code.toLowerCase();
  return languages.find((l) => l.code.toLowerCase() === wanted);
}

/** A language tag in its canonical BCP 47 form (`PT-br` → `pt-BR`), or null when it is not one. */
export function canonicalCode(raw: string): string | null {
  if (!raw || raw.length > MAX_CODE_LENGTH || !/^[A-Za-z0-9-]+$/.test(raw)) return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(raw);
    return canonical && canonical.length <= MAX_CODE_LENGTH ? canonical : null;
  } catch {
    return null;
  }
}
