import type en from '../../messages/en.json';
import { translate } from './translate.ts';

/** Every dotted key of the English catalogue (`home.title`), so a page cannot ask for one that does not exist. */
type Keys<T, P extends string = ''> = {
  [K in keyof T & string]: K extends `$${string}` ? never : T[K] extends string ? `${P}${K}` : Keys<T[K], `${P}${K}.`>;
}[keyof T & string];
export type MessageKey = Keys<typeof en>;
type Inputs = Record<string, string | number>;

/**
 * The request's merged catalogue (built-in strings under the admin's edits, loaded by the
 * middleware) as a `t()` for Astro pages: the same strings the islands get from /translations.
 */
export function translator(locals: { messages: Readonly<Record<string, string>> }): (key: MessageKey, inputs?: Inputs) => string {
  return (key, inputs) => translate(locals.messages, key, inputs);
}
