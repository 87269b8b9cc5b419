import type { EmojiCatalogue } from './emojiList.ts';

const checked = new WeakMap<EmojiCatalogue, Promise<EmojiCatalogue>>();

/**
 * The catalogue without the emoji that the Twemoji font does not draw as one picture in this
 * browser. The font has every Emoji 15.0 sequence, but Chromium does not join its ligatures for
 * sequences with a text-style part (🧔‍♂️, ❤️‍🔥, 🏳️‍🌈, 🧑‍⚕️, the keycaps #️⃣): they come out as two
 * pictures side by side. Rather than list browsers, the picker measures once per page: a sequence
 * drawn wider than a single emoji is left out. If the font cannot load, nothing is left out.
 */
export function drawnByTwemoji(data: EmojiCatalogue): Promise<EmojiCatalogue> {
  let promise = checked.get(data);
  if (!promise) {
    promise = measure(data).catch(() => data);
    checked.set(data, promise);
  }
  return promise;
}

async function measure(data: EmojiCatalogue): Promise<EmojiCatalogue> {
  await document.fonts.load('32px Twemoji', '😀');
  // Single code points (with or without FE0F) are one glyph; only sequences can fall apart.
  const sequences = data.emoji.filter((e) => [...e.char.replace('\ufe0f', '')].length > 1);
  const box = document.createElement('div');
  box.setAttribute('aria-hidden', 'true');
  box.style.cssText = 'position:absolute;left:-10000px;top:0;visibility:hidden;font:32px/1 Twemoji;white-space:nowrap';
  const spans = [{ char: '😀' }, ...sequences].map((e) => {
    const span = document.createElement('span');
    span.style.display = 'block';
    span.style.width = 'max-content';
    span.textContent = e.char;
    box.append(span);
    return span;
  });
  document.body.append(box);
  try {
    const widths = spans.map((s) => s.getBoundingClientRect().width);
    const single = widths[0]!;
    if (!(single > 0)) return data;
    const apart = new Set(sequences.filter((_, i) => widths[i + 1]! > single * 1.5).map((e) => e.char));
    if (apart.size === 0) return data;
    const emoji = data.emoji.filter((e) => !apart.has(e.char));
    return { groups: data.groups, emoji, byChar: new Map(emoji.map((e) => [e.char, e])) };
  } finally {
    box.remove();
  }
}
