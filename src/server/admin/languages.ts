import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { badRequest, notFound, validationError } from '../http/errors.ts';
import { keysetPage, pageRequest } from '../http/keyset.ts';
import { validate } from '../http/validate.ts';
import { BUILT_IN_LANGUAGES, CATALOGUE_KEYS } from '../i18n/builtin.ts';
import { findLanguage, listLanguages, type Language } from '../i18n/languages.ts';
import { defaultLanguage } from '../i18n/locales.ts';
import { translationState, untranslatedCount } from '../i18n/progress.ts';
import { putSetting } from '../settings/service.ts';
import { recordAudit } from './audit.ts';
import { requireAdmin } from './guard.ts';
import { CreateLanguageInput, UpdateLanguageInput } from './language-schemas.ts';

/** The languages, built-in first, each with how many strings were changed and still wait for a translation. */
export async function listLanguagesForAdmin(ctx: AppContext, user: User, query: URLSearchParams) {
  requireAdmin(user);
  const page = pageRequest(query, 2);
  const languages = await listLanguages(ctx.db);
  const fallback = await defaultLanguage(ctx, languages);
  const keyOf = (l: Language) => [l.builtIn ? 0 : 1, l.code] as [number, string];
  const sorted = languages.sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
  const after = page.after;
  if (after && (typeof after[0] !== 'number' || typeof after[1] !== 'string')) throw badRequest('The cursor is not valid. Start again from the first page.');
  const rows = (after ? sorted.filter((l) => compareKeys(keyOf(l), after as [number, string]) > 0) : sorted).slice(0, page.limit + 1);
  const presented = new Map<string, Awaited<ReturnType<typeof presentLanguage>>>();
  for (const language of rows.slice(0, page.limit)) presented.set(language.code, await presentLanguage(ctx, language, languages, fallback.code));
  return keysetPage(rows, page, keyOf, (l) => presented.get(l.code)!);
}

export async function createLanguage(ctx: AppContext, user: User, body: Record<string, unknown>) {
  requireAdmin(user);
  const input = validate(CreateLanguageInput, body);
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('languages')
      .values({ code: input.code, name: input.name, rtl: input.rtl ? 1 : 0, version: 0, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('code').doNothing())
      .returning('code')
      .executeTakeFirst();
    if (!inserted) throw validationError({ code: [`There already is a language with the code ${input.code}.`] });
    await recordAudit(ctx, trx, user, { action: 'language.create', target_type: 'language', target_id: input.code, target_label: input.name, after: { code: input.code, name: input.name, rtl: input.rtl } });
  });
  return { data: await presentOne(ctx, input.code) };
}

export async function updateLanguage(ctx: AppContext, user: User, code: string | undefined, body: Record<string, unknown>) {
  requireAdmin(user);
  const input = validate(UpdateLanguageInput, body);
  const languages = await listLanguages(ctx.db);
  const language = requireLanguage(languages, code);
  const wasDefault = (await defaultLanguage(ctx, languages)).code === language.code;
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const change = (field: string, from: unknown, to: unknown) => {
    before[field] = from;
    after[field] = to;
  };
  if (input.name !== undefined && input.name !== language.name) change('name', language.name, input.name);
  if (input.rtl !== undefined && input.rtl !== language.rtl) change('rtl', language.rtl, input.rtl);
  if (input.default && !wasDefault) change('default', false, true);
  if (Object.keys(after).length) {
    await ctx.db.transaction().execute(async (trx) => {
      if ('name' in after || 'rtl' in after) {
        await trx
          .updateTable('languages')
          .set({ name: input.name ?? language.name, rtl: (input.rtl ?? language.rtl) ? 1 : 0, updated_at: ctx.clock.now().toISOString() })
          .where('code', '=', language.code)
          .execute();
      }
      if ('default' in after) await putSetting(ctx, 'locale', language.code, trx);
      await recordAudit(ctx, trx, user, { action: 'language.update', target_type: 'language', target_id: language.code, target_label: input.name ?? language.name, before, after });
    });
  }
  return { data: await presentOne(ctx, language.code) };
}

/**
 * Removes an added language and its strings. People who had picked it get their browser's
 * language or the instance default on their next page (their cookie names nothing any more).
 */
export async function deleteLanguage(ctx: AppContext, user: User, code: string | undefined): Promise<void> {
  requireAdmin(user);
  const languages = await listLanguages(ctx.db);
  const language = requireLanguage(languages, code);
  if (language.builtIn) {
    throw validationError({ code: [`${Object.values(BUILT_IN_LANGUAGES).join(' and ')} ship with the product and cannot be deleted; their changed strings can be reset instead.`] });
  }
  if ((await defaultLanguage(ctx, languages)).code === language.code) {
    throw validationError({ code: [`${language.name} is the default language of this instance: make another language the default first.`] });
  }
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('translation_overrides').where('language_code', '=', language.code).execute();
    await trx.deleteFrom('languages').where('code', '=', language.code).execute();
    await recordAudit(ctx, trx, user, { action: 'language.delete', target_type: 'language', target_id: language.code, target_label: language.name, before: { code: language.code, name: language.name, rtl: language.rtl } });
  });
}

/** The language a URL names (any case), or 404. */
export function requireLanguage(languages: readonly Language[], code: string | undefined): Language {
  const language = findLanguage(languages, code);
  if (!language) throw notFound('There is no such language.');
  return language;
}

async function presentOne(ctx: AppContext, code: string) {
  const languages = await listLanguages(ctx.db);
  return presentLanguage(ctx, requireLanguage(languages, code), languages, (await defaultLanguage(ctx, languages)).code);
}

async function presentLanguage(ctx: AppContext, language: Language, languages: readonly Language[], defaultCode: string) {
  const state = await translationState(ctx.db, language, languages);
  return {
    id: language.code,
    type: 'language' as const,
    attributes: {
      code: language.code,
      name: language.name,
      rtl: language.rtl,
      built_in: language.builtIn,
      default: language.code === defaultCode,
      strings: CATALOGUE_KEYS.length,
      changed: state.changed.size,
      untranslated: untranslatedCount(state),
    },
  };
}

function compareKeys(a: [number, string], b: [number, string]): number {
  return a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
}
