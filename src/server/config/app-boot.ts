import type { User } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';
import { escapeJsonForScript, jsonForScript } from '../http/serialize.ts';
import { mergedCatalogue } from '../i18n/catalogue.ts';
import type { Language } from '../i18n/languages.ts';
import { userResource } from '../users/resource.ts';

/**
 * What the app would fetch before its first render, put into its document instead: the signed-in
 * user's resource (the same service /api/user answers with, for this request's user only) and the
 * merged catalogue of the page's language (the one /translations/{locale} serves). Both are ready
 * to be the text of a `<script type="application/json">` element.
 */
export async function appBootData(ctx: AppContext, locals: { user: User | null; locale: string; languages: readonly Language[] }): Promise<{ user: string; translations: string } | null> {
  if (!locals.user) return null;
  const language = locals.languages.find((l) => l.code === locals.locale);
  if (!language) return null;
  const [resource, catalogue] = await Promise.all([userResource(ctx, locals.user), mergedCatalogue(ctx.db, language, locals.languages)]);
  return { user: jsonForScript(resource.data), translations: escapeJsonForScript(catalogue.json) };
}
