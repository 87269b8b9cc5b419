import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { badRequest, validationError } from '../http/errors.ts';
import { keysetPage, pageRequest } from '../http/keyset.ts';
import { validate } from '../http/validate.ts';
import { BASE_LOCALE, builtInStrings, CATALOGUE_KEYS, isCatalogueKey } from '../i18n/builtin.ts';
import { listLanguages } from '../i18n/languages.ts';
import { placeholderProblem, placeholders } from '../i18n/placeholders.ts';
import { defaultText, isUntranslated, translationState, untranslatedCount, type TranslationState } from '../i18n/progress.ts';
import { recordAudit } from './audit.ts';
import { requireAdmin } from './guard.ts';
import { requireLanguage } from './languages.ts';
import { PutStringsInput, StringsQuery } from './language-schemas.ts';

/**
 * One language's strings, by key, keyset-paged: `search` matches the key, the English text and
 * this language's text; `filter=changed` keeps the ones an admin edited, `filter=untranslated`
 * the ones still waiting for a translation (progress.ts says which those are).
 */
export async function listStrings(ctx: AppContext, user: User, code: string | undefined, query: URLSearchParams) {
  requireAdmin(user);
  const { search, filter } = validate(StringsQuery, { search: query.get('search') ?? undefined, filter: query.get('filter') || undefined });
  const page = pageRequest(query, 1);
  const after = page.after?.[0] ?? null;
  if (after !== null && typeof after !== 'string') throw badRequest('The cursor is not valid. Start again from the first page.');
  const languages = await listLanguages(ctx.db);
  const state = await translationState(ctx.db, requireLanguage(languages, code), languages);
  const needle = search.trim().toLocaleLowerCase();
  const matching = CATALOGUE_KEYS.filter(
    (key) =>
      (filter !== 'changed' || state.changed.has(key)) &&
      (filter !== 'untranslated' || isUntranslated(state, key)) &&
      (!needle || [key, state.english[key]!, state.messages[key]!].some((text) => text.toLocaleLowerCase().includes(needle))),
  );
  const rows = (after === null ? matching : matching.filter((key) => key > after)).slice(0, page.limit + 1);
  const result = keysetPage(rows, page, (key) => [key], (key) => presentString(state, key));
  return { ...result, meta: { ...result.meta, total: matching.length, changed: state.changed.size, untranslated: untranslatedCount(state) } };
}

/**
 * Sets the text of one key or several (`{ strings: { key: text } }`; null goes back to the
 * built-in text). Each text must keep the English string's placeholders, no more and no fewer;
 * one refusal refuses the whole request. Every process serves the new strings on its next page
 * load: the language's version goes up in the same transaction.
 */
export async function putStrings(ctx: AppContext, user: User, code: string | undefined, body: Record<string, unknown>) {
  requireAdmin(user);
  const { strings } = validate(PutStringsInput, body);
  const languages = await listLanguages(ctx.db);
  const language = requireLanguage(languages, code);
  const errors: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(strings)) {
    const shown = key.slice(0, 100);
    if (!isCatalogueKey(key)) errors[`strings.${shown}`] = [`There is no string “${shown}”.`];
    else if (value !== null) {
      const problem = placeholderProblem(builtInStrings(BASE_LOCALE)[key]!, value);
      if (problem?.kind === 'missing') errors[`strings.${key}`] = [`The text of “${key}” must keep the placeholder {${problem.name}}.`];
      if (problem?.kind === 'unknown') errors[`strings.${key}`] = [`The text of “${key}” uses the placeholder {${problem.name}}, which it does not have${knownList(key)}.`];
    }
  }
  if (Object.keys(errors).length) throw validationError(errors);

  const state = await translationState(ctx.db, language, languages);
  const keys = Object.keys(strings);
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    const current = new Map(
      (await trx.selectFrom('translation_overrides').select(['key', 'value']).where('language_code', '=', language.code).where('key', 'in', keys).execute()).map((r) => [r.key, r.value]),
    );
    const before: { key: string; value: string | null }[] = [];
    const after: { key: string; value: string | null }[] = [];
    for (const [key, value] of Object.entries(strings)) {
      // Text equal to what the key shows without an edit is no edit: the override goes.
      const next = value === null || value === defaultText(state, key) ? null : value;
      const previous = current.get(key) ?? null;
      if (next === previous) continue;
      before.push({ key, value: previous });
      after.push({ key, value: next });
      if (next === null) await trx.deleteFrom('translation_overrides').where('language_code', '=', language.code).where('key', '=', key).execute();
      else {
        await trx
          .insertInto('translation_overrides')
          .values({ language_code: language.code, key, value: next, updated_by: user.id, updated_at: now })
          .onConflict((oc) => oc.columns(['language_code', 'key']).doUpdateSet({ value: next, updated_by: user.id, updated_at: now }))
          .execute();
      }
    }
    if (!after.length) return;
    await trx.updateTable('languages').set((eb) => ({ version: eb('version', '+', 1), updated_at: now })).where('code', '=', language.code).execute();
    await recordAudit(ctx, trx, user, { action: 'translation.update', target_type: 'language', target_id: language.code, target_label: language.name, before: { strings: before }, after: { strings: after } });
  });

  const fresh = await listLanguages(ctx.db);
  const updated = await translationState(ctx.db, requireLanguage(fresh, language.code), fresh);
  return { data: keys.map((key) => presentString(updated, key)), meta: { changed: updated.changed.size, untranslated: untranslatedCount(updated) } };
}

function presentString(state: TranslationState, key: string) {
  return {
    id: key,
    type: 'translation' as const,
    attributes: {
      key,
      english: state.english[key]!,
      value: state.messages[key]!,
      /** What the key shows when the edit is reset. */
      default: defaultText(state, key),
      changed: state.changed.has(key),
      untranslated: isUntranslated(state, key),
      placeholders: [...placeholders(builtInStrings(BASE_LOCALE)[key]!)],
    },
  };
}

function knownList(key: string): string {
  const known = [...placeholders(builtInStrings(BASE_LOCALE)[key]!)];
  return known.length ? ` (it has ${known.map((n) => `{${n}}`).join(', ')})` : ' (it has none)';
}
