import { describe, expect, it } from 'vitest';
import { filterEmoji, FOLDER_EMOJI, gridMove } from '../../src/components/pickers/emojiList.ts';

describe('emoji picker helpers', () => {
  it('has ~48 distinct emoji with names', () => {
    expect(FOLDER_EMOJI.length).toBe(48);
    expect(new Set(FOLDER_EMOJI.map((e) => e.char)).size).toBe(48);
    for (const e of FOLDER_EMOJI) expect(e.name).toMatch(/^[a-z][a-z -]+$/);
  });

  it('filters by every word of the name', () => {
    expect(filterEmoji(FOLDER_EMOJI, '').length).toBe(48);
    expect(filterEmoji(FOLDER_EMOJI, 'FOLDER').map((e) => e.char)).toEqual(['📁', '📂']);
    expect(filterEmoji(FOLDER_EMOJI, 'open folder').map((e) => e.char)).toEqual(['📂']);
    expect(filterEmoji(FOLDER_EMOJI, 'zebra')).toEqual([]);
  });

  it('moves across the grid and stays inside it', () => {
    expect(gridMove('ArrowRight', 0, 10, 8)).toBe(1);
    expect(gridMove('ArrowLeft', 0, 10, 8)).toBe(0);
    expect(gridMove('ArrowDown', 1, 10, 8)).toBe(9);
    expect(gridMove('ArrowDown', 3, 10, 8)).toBe(3);
    expect(gridMove('ArrowUp', 9, 10, 8)).toBe(1);
    expect(gridMove('End', 0, 10, 8)).toBe(9);
    expect(gridMove('Home', 7, 10, 8)).toBe(0);
    expect(gridMove('a', 0, 10, 8)).toBeNull();
    expect(gridMove('ArrowRight', 0, 0, 8)).toBeNull();
  });
});
