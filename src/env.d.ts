/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    ctx: import('./server/context.ts').AppContext;
    user: import('./server/auth/sessions.ts').User | null;
    session: import('./server/auth/sessions.ts').Session | null;
    authMethod: 'cookie' | 'token' | null;
    locale: string;
  }
}

/** The emoji picker's data for one language, built by integrations/emoji-data.mjs. */
declare module 'virtual:emoji-data-*' {
  const data: import('./components/pickers/emojiData.ts').EmojiData;
  export default data;
}
