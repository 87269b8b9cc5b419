import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { EMOJI_GROUPS, MAX_EMOJI_VERSION, slimEmojibase } from '../../src/components/pickers/emojiData.ts';
import { catalogue, gridMove, layoutGrid, parseRecent, pushRecent, RECENT_LIMIT, searchEmoji, type EmojiEntry } from '../../src/components/pickers/emojiList.ts';

const require = createRequire(import.meta.url);
const slim = (locale: 'en' | 'de') => slimEmojibase(locale, require(`emojibase-data/${locale}/data.json`), require(`emojibase-data/${locale}/messages.json`));
const en = catalogue(slim('en'));
const de = catalogue(slim('de'));
const chars = (list: readonly EmojiEntry[]) => list.map((e) => e.char);

describe('emoji data', () => {
  it('offers the whole Unicode set in nine groups, in Unicode order', () => {
    expect(en.emoji.length).toBeGreaterThan(1800);
    expect(new Set(chars(en.emoji)).size).toBe(en.emoji.length);
    expect(en.groups.map((g) => g.key)).toEqual([...EMOJI_GROUPS]);
    expect(en.groups.at(-1)!.name).toBe('flags');
    for (const key of EMOJI_GROUPS) expect(en.emoji.some((e) => e.group === key), key).toBe(true);
    expect(en.emoji[0]!.char).toBe('😀');
    expect(en.byChar.get('📦')!.name).toBe('package');
  });

  it('stores the fully-qualified character: no extra FE0F on emoji-default emoji, kept on text-default ones', () => {
    expect([...en.byChar.get('📦')!.char].length).toBe(1);
    expect(en.byChar.get('\u2708\ufe0f')!.name).toBe('airplane');
    expect(en.byChar.get('\u{1f3f3}\ufe0f\u200d\u{1f308}')!.name).toBe('rainbow flag');
  });

  it('leaves out emoji newer than the Twemoji font, the bare skin tones and the regional letters', () => {
    const rows = require('emojibase-data/en/data.json') as { emoji: string; version: number; group?: number }[];
    const tooNew = rows.filter((r) => r.version > MAX_EMOJI_VERSION);
    expect(tooNew.length).toBeGreaterThan(0);
    for (const r of tooNew) expect(en.byChar.has(r.emoji), r.emoji).toBe(false);
    expect(en.byChar.has('🫨')).toBe(true); // shaking face, Emoji 15.0: drawn by twemoji-colr-font 15
    expect(en.byChar.has('🙂‍↔️')).toBe(false); // head shaking horizontally, Emoji 15.1
    expect(en.byChar.has('🏻')).toBe(false); // a bare skin-tone modifier ("component")
    expect(en.byChar.has('🇦')).toBe(false);
  });

  it('has German names and keywords with the same emoji', () => {
    expect(chars(de.emoji)).toEqual(chars(en.emoji));
    expect(de.byChar.get('🚀')!.name).toBe('Rakete');
    expect(de.groups.at(-1)!.name).toBe('Flaggen');
  });
});

describe('emoji search', () => {
  it('finds by name first, then by keyword', () => {
    expect(searchEmoji(en.emoji, 'rocket')[0]!.char).toBe('🚀');
    expect(searchEmoji(en.emoji, 'ROCKET ')[0]!.char).toBe('🚀');
    // "launch" is only a keyword of the rocket.
    expect(chars(searchEmoji(en.emoji, 'launch'))).toContain('🚀');
    // An exact name beats names that merely start with it or contain it.
    expect(searchEmoji(en.emoji, 'package')[0]!.char).toBe('📦');
    expect(searchEmoji(en.emoji, 'folder').slice(0, 2).map((e) => e.char)).toEqual(['📁', '📂']);
    // The exact name, then a name's start, before a keyword: "dog" finds dog, dog face, then hot dog.
    const dog = chars(searchEmoji(en.emoji, 'dog'));
    expect(dog.slice(0, 2)).toEqual(['🐕', '🐶']);
    expect(dog.indexOf('🌭')).toBeGreaterThan(1);
  });

  it('needs every word and keeps Unicode order among equals', () => {
    expect(chars(searchEmoji(en.emoji, 'open folder'))).toEqual(['📂']);
    expect(searchEmoji(en.emoji, 'zebra rocket')).toEqual([]);
    expect(searchEmoji(en.emoji, 'qqqq')).toEqual([]);
    const flags = searchEmoji(en.emoji, 'flag');
    const orders = flags.filter((e) => e.name.startsWith('flag:')).map((e) => en.emoji.indexOf(e));
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
  });

  it('finds an emoji typed as itself, and an empty query is everything', () => {
    expect(searchEmoji(en.emoji, '🚀')[0]!.char).toBe('🚀');
    expect(searchEmoji(en.emoji, '   ').length).toBe(en.emoji.length);
  });

  it('searches German with or without umlauts', () => {
    expect(searchEmoji(de.emoji, 'rakete')[0]!.char).toBe('🚀');
    const green = chars(searchEmoji(de.emoji, 'grün'));
    expect(green.length).toBeGreaterThan(0);
    expect(chars(searchEmoji(de.emoji, 'grun'))).toEqual(green);
  });
});

describe('recently used', () => {
  it('puts the latest pick first without repeats and keeps 24', () => {
    expect(pushRecent([], '🚀')).toEqual(['🚀']);
    expect(pushRecent(['📦', '🚀', '🎉'], '🚀')).toEqual(['🚀', '📦', '🎉']);
    const full = Array.from({ length: RECENT_LIMIT }, (_, i) => String.fromCodePoint(0x1f600 + i));
    const next = pushRecent(full, '🚀');
    expect(next.length).toBe(RECENT_LIMIT);
    expect(next[0]).toBe('🚀');
    expect(next).not.toContain(full.at(-1));
  });

  it('reads back only a list of short strings', () => {
    expect(parseRecent(null)).toEqual([]);
    expect(parseRecent('not json')).toEqual([]);
    expect(parseRecent('{"a":1}')).toEqual([]);
    expect(parseRecent(JSON.stringify(['🚀', 7, '', 'x'.repeat(65), '🚀', '📦']))).toEqual(['🚀', '📦']);
    expect(parseRecent(JSON.stringify(Array.from({ length: 40 }, (_, i) => `e${i}`))).length).toBe(RECENT_LIMIT);
  });
});

describe('emoji grid', () => {
  const e = (char: string): EmojiEntry => ({ char, name: char, group: 'objects', key: char, tags: [] });
  const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => e(`${prefix}${i}`));
  // Recent: 3 cells; A: 10 cells (rows of 8 + 2); B: 5 cells.
  const layout = layoutGrid(
    [
      { key: 'recent', label: 'Recently used', items: many(3, 'r') },
      { key: 'empty', label: 'Empty', items: [] },
      { key: 'a', label: 'A', items: many(10, 'a') },
      { key: 'b', label: 'B', items: many(5, 'b') },
    ],
    8,
  );

  it('lays sections out as a heading and rows of cells, skipping empty ones', () => {
    expect(layout.rows.map((r) => (r.kind === 'heading' ? r.label : r.count))).toEqual(['Recently used', 3, 'A', 8, 2, 'B', 5]);
    expect(layout.cells.length).toBe(18);
    expect(layout.sectionRow.get('a')).toBe(2);
    expect(layout.sectionRow.has('empty')).toBe(false);
    expect(layout.rowOf[3]).toBe(3);
  });

  it('moves across rows and headings and stays inside the grid', () => {
    expect(gridMove('ArrowRight', 0, layout)).toBe(1);
    expect(gridMove('ArrowLeft', 0, layout)).toBe(0);
    expect(gridMove('ArrowRight', 2, layout)).toBe(3); // into the next section
    expect(gridMove('ArrowDown', 1, layout)).toBe(4); // over the "A" heading, same column
    expect(gridMove('ArrowDown', 10, layout)).toBe(12); // column 7 → the short row's last cell
    expect(gridMove('ArrowUp', 4, layout)).toBe(1);
    expect(gridMove('ArrowUp', 9, layout)).toBe(2); // column 5 → the short recent row's last cell
    expect(gridMove('ArrowDown', 14, layout)).toBe(14); // last row
    expect(gridMove('ArrowUp', 0, layout)).toBe(0);
    expect(gridMove('End', 0, layout)).toBe(17);
    expect(gridMove('Home', 7, layout)).toBe(0);
    expect(gridMove('a', 0, layout)).toBeNull();
    expect(gridMove('ArrowRight', 0, layoutGrid([], 8))).toBeNull();
  });
});
