import type { EmojiData, EmojiGroup } from './emojiData.ts';

/** A picked emoji as items store it (SPEC §3 item emoji): the character and its Unicode (CLDR) name. */
export interface PickedEmoji {
  char: string;
  name: string;
}

/** One emoji as the picker searches it: the stored pair plus its group and folded search keys. */
export interface EmojiEntry extends PickedEmoji {
  group: EmojiGroup;
  /** The name, lower-case and without accents ("grün" → "grun"), for matching. */
  key: string;
  /** The keywords, folded the same way. */
  tags: string[];
}

export interface EmojiCatalogue {
  groups: { key: EmojiGroup; name: string }[];
  emoji: EmojiEntry[];
  byChar: Map<string, EmojiEntry>;
}

/** Lower case without accents, so "Gruen"/"grün" and "Grun" meet. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The slim rows as entries, folded once so each keystroke only compares strings. */
export function catalogue(data: EmojiData): EmojiCatalogue {
  const emoji = data.emoji.map(([char, name, group, tags]): EmojiEntry => ({ char, name, group: data.groups[group]!.key, key: fold(name), tags: tags.map(fold) }));
  return { groups: data.groups, emoji, byChar: new Map(emoji.map((e) => [e.char, e])) };
}

const loaded = new Map<string, Promise<EmojiCatalogue>>();

/**
 * The catalogue in the page language (German names and keywords on a German page, else English),
 * fetched as its own chunk the first time a picker opens and kept for the page's life.
 */
export function loadEmoji(lang: string): Promise<EmojiCatalogue> {
  const locale = lang.toLowerCase().startsWith('de') ? 'de' : 'en';
  let promise = loaded.get(locale);
  if (!promise) {
    promise = (locale === 'de' ? import('virtual:emoji-data-de') : import('virtual:emoji-data-en')).then((m) => catalogue(m.default));
    // A failed fetch (offline, a new deploy) may be retried at the next opening.
    promise.catch(() => loaded.delete(locale));
    loaded.set(locale, promise);
  }
  return promise;
}

/** How well one query word matches an entry: lower is better, null is no match. */
function wordScore(e: EmojiEntry, word: string): number | null {
  if (e.key === word) return 0;
  if (e.key.startsWith(word)) return 1;
  if (e.key.includes(` ${word}`) || e.key.includes(`:${word}`) || e.key.includes(`-${word}`)) return 2;
  if (e.tags.includes(word)) return 3;
  if (e.tags.some((t) => t.startsWith(word))) return 4;
  if (e.key.includes(word)) return 5;
  if (e.tags.some((t) => t.includes(word))) return 6;
  return null;
}

/**
 * The entries matching every word of the query in their name or keywords, best first: the name
 * itself, then a name starting with the word, a word of the name, an exact keyword, a keyword's
 * start, then anywhere; ties keep Unicode order. Typing the emoji itself finds it.
 */
export function searchEmoji(list: readonly EmojiEntry[], query: string): EmojiEntry[] {
  const trimmed = query.trim();
  const words = fold(trimmed).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...list];
  const scored: { e: EmojiEntry; score: number; i: number }[] = [];
  list.forEach((e, i) => {
    if (e.char === trimmed) {
      scored.push({ e, score: -1, i });
      return;
    }
    let score = e.key === words.join(' ') ? -0.5 : 0;
    for (const word of words) {
      const s = wordScore(e, word);
      if (s === null) return;
      score += s;
    }
    scored.push({ e, score, i });
  });
  return scored.sort((a, b) => a.score - b.score || a.i - b.i).map((s) => s.e);
}

/** How many picked emoji "Recently used" keeps. */
export const RECENT_LIMIT = 24;
const RECENT_KEY = 'emoji-recent';

/** The recent list with `char` moved to the front, without repeats, at most RECENT_LIMIT long. */
export function pushRecent(list: readonly string[], char: string): string[] {
  return [char, ...list.filter((c) => c !== char)].slice(0, RECENT_LIMIT);
}

/** The stored recent list, trusting nothing: anything but short strings is dropped. */
export function parseRecent(raw: string | null): string[] {
  let value: unknown;
  try {
    value = JSON.parse(raw ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const chars = value.filter((c): c is string => typeof c === 'string' && c.length > 0 && c.length <= 64);
  return [...new Set(chars)].slice(0, RECENT_LIMIT);
}

export function readRecent(): string[] {
  try {
    return parseRecent(localStorage.getItem(RECENT_KEY));
  } catch {
    return []; // storage blocked (privacy mode, sandboxed frame)
  }
}

export function rememberRecent(char: string): void {
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(pushRecent(readRecent(), char)));
  } catch {
    // Storage full or blocked: the pick itself still counts.
  }
}

/** A section of the grid: "Recently used", one group, or the search results (no heading). */
export interface EmojiSection {
  key: string;
  label: string | null;
  items: readonly EmojiEntry[];
}

export type GridRow = { kind: 'heading'; section: string; label: string } | { kind: 'cells'; section: string; start: number; count: number };

export interface GridLayout {
  rows: GridRow[];
  /** Every cell in display order; a cell's index here is its id for focus. */
  cells: EmojiEntry[];
  /** The row each cell sits in. */
  rowOf: number[];
  /** The heading row (or first row) of each section. */
  sectionRow: Map<string, number>;
}

/** Lays sections out as rows for the virtualised grid: a heading row, then rows of `columns` cells. */
export function layoutGrid(sections: readonly EmojiSection[], columns: number): GridLayout {
  const rows: GridRow[] = [];
  const cells: EmojiEntry[] = [];
  const rowOf: number[] = [];
  const sectionRow = new Map<string, number>();
  for (const section of sections) {
    if (section.items.length === 0) continue;
    sectionRow.set(section.key, rows.length);
    if (section.label !== null) rows.push({ kind: 'heading', section: section.key, label: section.label });
    for (let i = 0; i < section.items.length; i += columns) {
      const count = Math.min(columns, section.items.length - i);
      const start = cells.length;
      for (let j = 0; j < count; j++) {
        cells.push(section.items[i + j]!);
        rowOf.push(rows.length);
      }
      rows.push({ kind: 'cells', section: section.key, start, count });
    }
  }
  return { rows, cells, rowOf, sectionRow };
}

/**
 * Grid keyboard movement over a layout: left/right along the cells, up/down to the same column of
 * the next row of cells (over headings, to the row's last cell when it is shorter), Home/End to the
 * ends. Null for other keys.
 */
export function gridMove(key: string, index: number, layout: GridLayout): number | null {
  const count = layout.cells.length;
  if (count === 0) return null;
  const step = (dir: 1 | -1) => {
    const row = layout.rowOf[index]!;
    const col = index - (layout.rows[row] as { start: number }).start;
    for (let r = row + dir; r >= 0 && r < layout.rows.length; r += dir) {
      const next = layout.rows[r]!;
      if (next.kind === 'cells') return next.start + Math.min(col, next.count - 1);
    }
    return index;
  };
  switch (key) {
    case 'ArrowRight':
      return Math.min(count - 1, index + 1);
    case 'ArrowLeft':
      return Math.max(0, index - 1);
    case 'ArrowDown':
      return step(1);
    case 'ArrowUp':
      return step(-1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
