import { describe, expect, it } from 'vitest';
import de from '../../messages/de.json' with { type: 'json' };
import en from '../../messages/en.json' with { type: 'json' };
import { BUILT_IN_LANGUAGES, builtInCatalogue } from '../../src/server/i18n/builtin.ts';

function flatten(source: Record<string, unknown>, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  for (const [key, value] of Object.entries(source)) {
    if (key.startsWith('$')) continue;
    const id = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[id] = value;
    else flatten(value as Record<string, unknown>, id, out);
  }
  return out;
}
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('built-in catalogues', () => {
  const base = flatten(en);
  it.each(Object.keys(BUILT_IN_LANGUAGES).filter((l) => l !== 'en'))('%s translates every English key with the same placeholders', (locale) => {
    const other = flatten(locale === 'de' ? de : {});
    expect(Object.keys(other).sort()).toEqual(Object.keys(base).sort());
    for (const [key, text] of Object.entries(base)) {
      expect(placeholders(other[key]!), key).toEqual(placeholders(text));
      expect(other[key]!.trim(), key).not.toBe('');
    }
  });

  it('serves German with English only where a key is missing', () => {
    expect(builtInCatalogue('de')['locations.home']).toBe('Dateien');
    expect(builtInCatalogue('en')['locations.home']).toBe('Files');
  });
});
