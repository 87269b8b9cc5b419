// @ts-check
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { slimEmojibase } from '../src/components/pickers/emojiData.ts';

const require = createRequire(import.meta.url);
const PREFIX = 'virtual:emoji-data-';
/** The emojibase-data languages the picker loads (the page languages we ship). */
const LOCALES = new Set(['en', 'de']);

/** @param {string} file */
const readJson = (file) => JSON.parse(readFileSync(require.resolve(`emojibase-data/${file}`), 'utf8'));

/**
 * A Vite plugin serving `virtual:emoji-data-<locale>`: emojibase-data's list for that language cut
 * down to the emoji picker's rows (src/components/pickers/emojiData.ts) at build time. The picker
 * imports it dynamically, so it is its own chunk, fetched only when a picker opens.
 */
export function emojiData() {
  return {
    name: 'emoji-data',
    /** @param {string} id */
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : undefined;
    },
    /** @param {string} id */
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const locale = id.slice(PREFIX.length + 1);
      if (!LOCALES.has(locale)) throw new Error(`No emoji data for "${locale}".`);
      const data = slimEmojibase(locale, readJson(`${locale}/data.json`), readJson(`${locale}/messages.json`));
      // JSON.parse of a string literal parses faster than the same data as an object literal.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(data))});`;
    },
  };
}
