import { defineMiddleware } from 'astro:middleware';
import { csrfRefusal, identify, viewOfAstro, type Identity } from './server/auth/principal.ts';
import { wireSecondFactors } from './server/auth/second-factor-wiring.ts';
import { SESSION_COOKIE, sessionCookieOptions } from './server/auth/sessions.ts';
import { json } from './server/http/endpoint.ts';
import { errorBody, isAppError } from './server/http/errors.ts';
import { isAuthArea } from './server/http/redirects.ts';
import { BASE_LOCALE, builtInStrings } from './server/i18n/builtin.ts';
import { mergedCatalogue } from './server/i18n/catalogue.ts';
import { resolveLocale } from './server/i18n/locales.ts';
import { getSettings, type Settings } from './server/settings/service.ts';
import { isSetupPath } from './server/setup/paths.ts';
import { installationState } from './server/setup/state.ts';
import { maintenanceFor } from './server/site/maintenance.ts';

wireSecondFactors();

/** The principal (auth/principal.ts), CSRF and the route guard, for every page and endpoint Astro serves. */
export const onRequest = defineMiddleware(async (context, next) => {
  const { locals, request, cookies, url } = context;
  // The metrics' route label (src/server/metrics/route-label.ts): the pattern, never the raw path.
  locals.routePattern = context.routePattern;
  const ctx = locals.ctx;
  const view = viewOfAstro(context);
  let identity: Identity;
  try {
    identity = await identify(ctx, view);
  } catch (error) {
    if (isAppError(error)) return json(errorBody(error), error.status, error.headers);
    throw error;
  }
  const { principal } = identity;
  locals.principal = principal;
  locals.user = principal?.user ?? null;
  locals.session = principal?.session ?? null;
  locals.authMethod = principal?.method ?? null;
  const sessionToken = cookies.get(SESSION_COOKIE)?.value;
  if (identity.renewed && principal?.session && sessionToken) cookies.set(SESSION_COOKIE, sessionToken, sessionCookieOptions(principal.session, ctx.config.secureCookies, ctx.clock.now()));
  if (identity.staleCookie) cookies.delete(SESSION_COOKIE, { path: '/' });

  const refusal = csrfRefusal(ctx, view, locals.authMethod);
  if (refusal) return json(errorBody(refusal), refusal.status);

  // One read of the settings per request, shared by the default language and the maintenance switch.
  let settingsRead: Promise<Settings> | undefined;
  const settings = () => (settingsRead ??= getSettings(ctx));
  const path = url.pathname;
  const api = path.startsWith('/api/');
  if (api) {
    // JSON endpoints answer in no language (the browser translates): no language list or catalogue
    // read for them, two statements less per API call. English built-ins, should anything render.
    locals.locale = BASE_LOCALE;
    locals.dir = 'ltr';
    locals.languages = [];
    locals.messages = builtInStrings(BASE_LOCALE);
  } else {
    const { language, languages } = await resolveLocale(ctx, request, cookies, settings);
    locals.locale = language.code;
    locals.dir = language.rtl ? 'rtl' : 'ltr';
    locals.languages = languages;
    // Cached per process and checked against the version the language list just read: admin edits show on the next load.
    locals.messages = (await mergedCatalogue(ctx.db, language, languages)).messages;
  }

  if ((await installationState(ctx)) === 'installation-needed') {
    if (!isSetupPath(path) && !path.startsWith('/translations/') && path !== '/404') {
      if (api) return json({ message: 'This instance is not installed yet: finish the setup wizard first.', code: 'installation_needed' }, 503);
      return context.redirect('/setup-wizard/status-check', 302);
    }
  } else {
    // The wizard and its API never come back once installed: no second admin takeover.
    if (isSetupPath(path)) return api ? json({ message: 'Not found.' }, 404) : withSecurityHeaders(await next('/404'));
    const maintenance = await maintenanceFor(ctx, path, locals.user, settings);
    if (maintenance) {
      const headers = { 'Retry-After': String(maintenance.retryAfter) };
      if (api) return json({ message: 'The service is temporarily unavailable for maintenance.', code: 'maintenance' }, 503, headers);
      const page = await next('/temporary-unavailable');
      const pageHeaders = new Headers(page.headers);
      pageHeaders.set('Retry-After', headers['Retry-After']);
      pageHeaders.set('Cache-Control', 'no-store');
      return withSecurityHeaders(new Response(page.body, { status: 503, headers: pageHeaders }));
    }
  }

  if (isAuthArea(url.pathname) && (request.method === 'GET' || request.method === 'HEAD')) {
    if (!locals.user) return context.redirect(`/sign-in?redirect=${encodeURIComponent(url.pathname + url.search)}`, 302);
    if (url.pathname.startsWith('/admin') && locals.user.role !== 'admin') return context.redirect('/platform/files', 302);
  }

  return withSecurityHeaders(await next());
});

function withSecurityHeaders(original: Response): Response {
  // Redirects and some other responses come with immutable headers: copy before changing them.
  const response = new Response(original.body, original);
  response.headers.set('X-Content-Type-Options', 'nosniff');
  if (!response.headers.has('Referrer-Policy')) response.headers.set('Referrer-Policy', 'same-origin');
  if ((response.headers.get('content-type') ?? '').startsWith('text/html') && !response.headers.has('X-Frame-Options')) {
    response.headers.set('X-Frame-Options', 'DENY');
  }
  return response;
}
