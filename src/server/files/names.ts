/** Item names: validation, the comparison key, and the next free name for copies and uploads. */

export const MAX_NAME_BYTES = 255;

/** The key names are compared by: NFC-normalised and lower-cased, so `Café`, `cafe\u0301` and `CAFÉ` are one name. */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase().normalize('NFC');
}

/**
 * Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the Arabic letter
 * mark (U+061C), zero-width spaces, joiners and direction marks (U+200B–U+200F) and the byte-order
 * mark (U+FEFF): invisible, and able to make `invoice\u202Etxt.exe` read as `invoiceexe.txt`.
 */
const INVISIBLE_FORMATTING = /[\u202a-\u202e\u2066-\u2069\u061c\u200b-\u200f\ufeff]/;

/**
 * For a person's name (profile, sign-up): control characters (a CR/LF would end a mail header) and
 * bidirectional overrides are refused; zero-width joiners are not, since some scripts write names with them.
 */
/**
 * Joiners that belong where they stand: U+200D inside an emoji sequence (👨‍👩‍👧, 🏳️‍🌈) and U+200C/U+200D
 * between letters (Persian, Indic scripts write words with them). Only these are let through.
 */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: U+FE0F stands alone in the class on purpose: a joiner may follow a variation selector.
const JOINER_IN_EMOJI = /(?<=[\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}\uFE0F])\u200d(?=\p{Extended_Pictographic})/gu;
const JOINER_IN_WORD = /(?<=[\p{L}\p{M}])[\u200c\u200d](?=[\p{L}\p{M}])/gu;

// eslint-disable-next-line no-control-regex
export const UNSAFE_PERSON_NAME = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Trims and NFC-normalises a name; returns it, or the reason it is refused. */
export function checkName(raw: string): { ok: true; name: string } | { ok: false; message: string } {
  const name = raw.trim().normalize('NFC');
  if (!name) return { ok: false, message: 'The name must not be empty.' };
  if (name === '.' || name === '..') return { ok: false, message: 'The name must not be "." or "..".' };
  if (/[/\\]/.test(name)) return { ok: false, message: 'The name must not contain "/" or "\\".' };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return { ok: false, message: 'The name must not contain control characters.' };
  if (INVISIBLE_FORMATTING.test(name.replace(JOINER_IN_EMOJI, '').replace(JOINER_IN_WORD, ''))) {
    return { ok: false, message: 'The name must not contain invisible direction-changing or zero-width characters.' };
  }
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) return { ok: false, message: `The name must not be longer than ${MAX_NAME_BYTES} bytes.` };
  return { ok: true, name };
}

/** Splits `report.pdf` into `report` and `.pdf`; folders and dot-files have no extension. */
function splitName(name: string, isFile: boolean): [string, string] {
  const dot = name.lastIndexOf('.');
  if (!isFile || dot <= 0) return [name, ''];
  return [name.slice(0, dot), name.slice(dot)];
}

/** Cuts a string to at most `bytes` UTF-8 bytes without splitting a character. */
function cutToBytes(text: string, bytes: number): string {
  let out = '';
  for (const ch of text) {
    if (Buffer.byteLength(out + ch, 'utf8') > bytes) break;
    out += ch;
  }
  return out;
}

/**
 * The base and extension candidates share: `report (3).pdf` counts on from `report`, not `report (3)`.
 * Candidates are `base (n)ext`; `taken` holds the name keys already used in the folder.
 */
export function nextFreeName(name: string, isFile: boolean, taken: (key: string) => boolean): string {
  for (let n = 0; ; n += 1) {
    const candidate = candidateName(name, isFile, n);
    if (!taken(nameKey(candidate))) return candidate;
  }
}

/** The n-th name nextFreeName tries: the name itself for 0, then `base (n).ext`. */
export function candidateName(name: string, isFile: boolean, n: number): string {
  if (n === 0) return name;
  const [rawBase, ext] = splitName(name, isFile);
  const base = rawBase.replace(/ \(\d+\)$/, '') || rawBase;
  const suffix = ` (${n})${ext}`;
  return cutToBytes(base, MAX_NAME_BYTES - Buffer.byteLength(suffix, 'utf8')) + suffix;
}
