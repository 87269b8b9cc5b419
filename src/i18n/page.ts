import * as messages from '../paraglide/messages.js';

export type MessageKey = keyof typeof messages;
type Inputs = Record<string, string | number>;

/** Paraglide's compiled messages, bound to the request's locale, for Astro pages. */
export function translator(locale: string): (key: MessageKey, inputs?: Inputs) => string {
  return (key, inputs = {}) => (messages[key] as (i: Inputs, o: { locale: string }) => string)(inputs, { locale });
}
