import type { Abilities } from '../server/files/abilities.ts';

export type { Abilities };
export type Ability = keyof Abilities;

/** Anything the server answered with `meta.abilities` (an item, a listing's meta, a tree node's `abilities`). */
type Carrier = { meta?: { abilities?: Abilities | undefined } | undefined } | null | undefined;

/**
 * What the server says the principal may do with an item: the client decides nothing itself. An
 * item that came without abilities (an answer that does not carry them) may do nothing.
 */
export function may(item: Carrier, ability: Ability): boolean {
  return item?.meta?.abilities?.[ability] === true;
}

/** Whether every one of a non-empty selection allows `ability`. */
export function allMay(items: Carrier[], ability: Ability): boolean {
  return items.length > 0 && items.every((item) => may(item, ability));
}
