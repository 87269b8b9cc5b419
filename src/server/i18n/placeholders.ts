/** The `{name}` placeholders of a catalogue string: the names the code fills in (src/i18n/translate.ts). */
export function placeholders(text: string): Set<string> {
  return new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));
}

/**
 * What is wrong with a translation's placeholders against the English string it translates: one
 * the code fills in and the translation leaves out, or one the code knows nothing of. Null when
 * they match.
 */
export function placeholderProblem(english: string, translation: string): { kind: 'missing' | 'unknown'; name: string } | null {
  const wanted = placeholders(english);
  const given = placeholders(translation);
  for (const name of wanted) if (!given.has(name)) return { kind: 'missing', name };
  for (const name of given) if (!wanted.has(name)) return { kind: 'unknown', name };
  return null;
}
