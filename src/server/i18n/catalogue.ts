import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/index.ts';
import { BASE_LOCALE, builtInStrings, isBuiltIn } from './builtin.ts';
import type { Language } from './languages.ts';

/** A language's effective strings: built-in English, English overrides, its built-in catalogue, its overrides. */
export interface MergedCatalogue {
  messages: Readonly<Record<string, string>>;
  /** `messages` as the JSON /translations serves, made once per change. */
  json: string;
  /** A strong ETag: a hash of `json`, so every process gives the same one for the same strings. */
  etag: string;
}

interface Entry {
  baseRevision: string;
  revision: string;
  catalogue: Promise<MergedCatalogue>;
}

/**
 * Merged catalogues cached per process and per database. An entry is used only while the
 * revisions stored in the database (read on every request with the language list) still match
 * the ones it was built from; another process's edit bumps a revision and the next request here
 * rebuilds. Nothing is trusted that only this process's memory knows.
 */
const caches = new WeakMap<Kysely<Database>, Map<string, Entry>>();

export function mergedCatalogue(db: Kysely<Database>, language: Language, languages: readonly Language[]): Promise<MergedCatalogue> {
  const base = languages.find((l) => l.code === BASE_LOCALE);
  const baseRevision = base?.revision ?? '';
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(language.code);
  if (hit && hit.revision === language.revision && hit.baseRevision === baseRevision) return hit.catalogue;
  // Revisions are read before the strings, so an entry is never labelled newer than what it holds.
  const catalogue = build(db, language.code);
  const entry = { baseRevision, revision: language.revision, catalogue };
  cache.set(language.code, entry);
  catalogue.catch(() => cache.get(language.code) === entry && cache.delete(language.code));
  // Languages deleted since stay out of the cache.
  for (const code of cache.keys()) if (!languages.some((l) => l.code === code)) cache.delete(code);
  return catalogue;
}

async function build(db: Kysely<Database>, code: string): Promise<MergedCatalogue> {
  const rows = await db
    .selectFrom('translation_overrides')
    .select(['language_code', 'key', 'value'])
    .where('language_code', 'in', [...new Set([BASE_LOCALE, code])])
    .execute();
  const layer = (of: string) => Object.fromEntries(rows.filter((r) => r.language_code === of).map((r) => [r.key, r.value]));
  const english = builtInStrings(BASE_LOCALE);
  const messages: Record<string, string> = { ...english, ...layer(BASE_LOCALE) };
  if (code !== BASE_LOCALE) {
    // An added language starts as (effective) English; a built-in one has its own strings first.
    if (isBuiltIn(code)) Object.assign(messages, builtInStrings(code));
    Object.assign(messages, layer(code));
  }
  // Only keys the product knows: an override left behind by a removed key is not served.
  for (const key of Object.keys(messages)) if (!Object.hasOwn(english, key)) delete messages[key];
  const json = JSON.stringify(messages);
  const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 32)}"`;
  return { messages: Object.freeze(messages), json, etag };
}

/** Whether an If-None-Match header names this ETag (a list, weak forms and `*` included). */
export function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const tag = part.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
