/**
 * The emoji picker's data: emojibase-data's full list, cut down at build time (integrations/emoji-data.mjs)
 * to what the picker shows and searches, so the lazy chunk carries ~1,900 small rows, not the package's
 * skin-tone variants, hexcodes and text forms.
 */

/**
 * The newest Emoji version the bundled Twemoji font draws (twemoji-colr-font 15.x covers Emoji 15.0).
 * Newer emoji would show as boxes in the Twemoji set, so the picker never offers them.
 */
export const MAX_EMOJI_VERSION = 15;

/** The group keys the picker shows, in emojibase order ("component", the bare skin tones and hair, is left out). */
export const EMOJI_GROUPS = ['smileys-emotion', 'people-body', 'animals-nature', 'food-drink', 'travel-places', 'activities', 'objects', 'symbols', 'flags'] as const;
export type EmojiGroup = (typeof EMOJI_GROUPS)[number];

/** One row of the slim list: the character, its CLDR annotation, its group index into `groups`, its keywords. */
export type SlimEmoji = [char: string, name: string, group: number, tags: string[]];

export interface EmojiData {
  /** The page language the names and keywords are in. */
  locale: string;
  /** Group keys and their names in that language, in the order of `EMOJI_GROUPS`. */
  groups: { key: EmojiGroup; name: string }[];
  emoji: SlimEmoji[];
}

/** The fields of emojibase-data's `data.json` rows and `messages.json` this reads. */
interface EmojibaseRow {
  emoji: string;
  hexcode: string;
  type: number;
  label: string;
  group?: number;
  order?: number;
  version: number;
  tags?: string[];
}
interface EmojibaseMessages {
  groups: { key: string; message: string; order: number }[];
}

/**
 * The emoji as Unicode's fully-qualified sequence. emojibase's `emoji` adds U+FE0F even to emoji
 * that are drawn as emoji by default (📦 becomes 📦 + FE0F); those are taken from the hexcode, so a
 * pick matches the same emoji stored or typed elsewhere. Text-default ones (✈️) keep their FE0F.
 */
function character(r: EmojibaseRow): string {
  return r.type === 1 ? String.fromCodePoint(...r.hexcode.split('-').map((h) => Number.parseInt(h, 16))) : r.emoji;
}

/** Cuts emojibase-data down to the picker's rows: grouped, drawable by the font, in Unicode order. */
export function slimEmojibase(locale: string, rows: readonly EmojibaseRow[], messages: EmojibaseMessages, maxVersion = MAX_EMOJI_VERSION): EmojiData {
  const byOrder = new Map(messages.groups.map((g) => [g.order, g]));
  const groups = EMOJI_GROUPS.map((key) => ({ key, name: messages.groups.find((g) => g.key === key)?.message ?? key }));
  const index = new Map<string, number>(EMOJI_GROUPS.map((key, i) => [key, i]));
  const emoji = rows
    .filter((r) => r.group !== undefined && r.version <= maxVersion && index.has(byOrder.get(r.group)?.key ?? ''))
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
    .map((r): SlimEmoji => [character(r), r.label, index.get(byOrder.get(r.group!)!.key)!, r.tags ?? []]);
  return { locale, groups, emoji };
}
