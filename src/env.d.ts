/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    ctx: import('./server/context.ts').AppContext;
    /** The matched route's pattern (`/api/browse/folders/[id]`), read back by the host for the request metrics. */
    routePattern?: string;
    /** Who is signed in (a session cookie or a bearer token); link holders are resolved per route. */
    principal: import('./server/auth/principal.ts').UserPrincipal | null;
    /** `principal.user`, for the code that only needs the account. */
    user: import('./server/auth/sessions.ts').User | null;
    session: import('./server/auth/sessions.ts').Session | null;
    authMethod: 'cookie' | 'token' | null;
    /**
     * The language the request is served in (a canonical BCP 47 code) and its text direction. Not
     * resolved for /api/ routes (English, no languages): JSON answers carry no translated text.
     */
    locale: string;
    dir: 'ltr' | 'rtl';
    /** Every language a person may pick, read per request (src/server/i18n/languages.ts). */
    languages: import('./server/i18n/languages.ts').Language[];
    /** The merged catalogue of `locale` (built-in strings under the admin's edits), for Astro pages. */
    messages: Readonly<Record<string, string>>;
  }
}

/** The emoji picker's data for one language, built by integrations/emoji-data.mjs. */
declare module 'virtual:emoji-data-*' {
  const data: import('./components/pickers/emojiData.ts').EmojiData;
  export default data;
}
