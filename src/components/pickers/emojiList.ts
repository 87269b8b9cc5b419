/** A picked emoji as items store it (SPEC §3 item emoji): the character and its Unicode name. */
export interface PickedEmoji {
  char: string;
  name: string;
}

/** Common emoji for folders, with their Unicode (CLDR) names for searching. */
export const FOLDER_EMOJI: readonly PickedEmoji[] = [
  { char: '📁', name: 'file folder' },
  { char: '📂', name: 'open file folder' },
  { char: '🗂️', name: 'card index dividers' },
  { char: '🗃️', name: 'card file box' },
  { char: '🗄️', name: 'file cabinet' },
  { char: '📦', name: 'package' },
  { char: '📄', name: 'page facing up' },
  { char: '📝', name: 'memo' },
  { char: '📚', name: 'books' },
  { char: '📓', name: 'notebook' },
  { char: '🖼️', name: 'framed picture' },
  { char: '📷', name: 'camera' },
  { char: '🎬', name: 'clapper board' },
  { char: '🎵', name: 'musical note' },
  { char: '🎧', name: 'headphone' },
  { char: '🎨', name: 'artist palette' },
  { char: '💼', name: 'briefcase' },
  { char: '🏠', name: 'house' },
  { char: '🏢', name: 'office building' },
  { char: '🏫', name: 'school' },
  { char: '🎓', name: 'graduation cap' },
  { char: '✈️', name: 'airplane' },
  { char: '🏖️', name: 'beach with umbrella' },
  { char: '🚗', name: 'automobile' },
  { char: '💰', name: 'money bag' },
  { char: '💳', name: 'credit card' },
  { char: '🧾', name: 'receipt' },
  { char: '📊', name: 'bar chart' },
  { char: '📈', name: 'chart increasing' },
  { char: '📅', name: 'calendar' },
  { char: '⏰', name: 'alarm clock' },
  { char: '🔒', name: 'locked' },
  { char: '🔑', name: 'key' },
  { char: '💡', name: 'light bulb' },
  { char: '⭐', name: 'star' },
  { char: '❤️', name: 'red heart' },
  { char: '🔥', name: 'fire' },
  { char: '🎉', name: 'party popper' },
  { char: '🎁', name: 'wrapped gift' },
  { char: '🚀', name: 'rocket' },
  { char: '🛠️', name: 'hammer and wrench' },
  { char: '💻', name: 'laptop' },
  { char: '📱', name: 'mobile phone' },
  { char: '🌍', name: 'globe showing europe-africa' },
  { char: '🌱', name: 'seedling' },
  { char: '🐶', name: 'dog face' },
  { char: '🍕', name: 'pizza' },
  { char: '🎮', name: 'video game' },
];

/** The emoji whose name contains every word of the query, in list order. */
export function filterEmoji(list: readonly PickedEmoji[], query: string): PickedEmoji[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...list];
  return list.filter((e) => words.every((w) => e.name.includes(w) || e.char === w));
}

/** Grid keyboard movement (arrows, Home, End) over `count` cells in rows of `columns`; null for other keys. */
export function gridMove(key: string, index: number, count: number, columns: number): number | null {
  if (count === 0) return null;
  const clamp = (i: number) => Math.max(0, Math.min(count - 1, i));
  switch (key) {
    case 'ArrowRight':
      return clamp(index + 1);
    case 'ArrowLeft':
      return clamp(index - 1);
    case 'ArrowDown':
      return index + columns < count ? index + columns : index;
    case 'ArrowUp':
      return index - columns >= 0 ? index - columns : index;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
