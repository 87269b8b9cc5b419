import { describe, expect, it } from 'vitest';
import { etagMatches } from '../../src/server/i18n/catalogue.ts';
import { canonicalCode } from '../../src/server/i18n/languages.ts';
import { fromAcceptLanguage } from '../../src/server/i18n/locales.ts';
import { placeholderProblem } from '../../src/server/i18n/placeholders.ts';

describe('Accept-Language against the languages an admin added', () => {
  const available = ['en', 'de', 'pt-BR', 'sr-Latn', 'fr'];
  it.each([
    ['pt-BR', 'pt-BR'],
    ['pt-br,en;q=0.5', 'pt-BR'],
    // No plain Portuguese: the regional form we have serves it.
    ['pt-PT', 'pt-BR'],
    ['pt', 'pt-BR'],
    ['fr-CA,en;q=0.9', 'fr'],
    ['sr-Latn-RS', 'sr-Latn'],
    ['it, de;q=0.4', 'de'],
    ['it', null],
  ])('%j picks %j', (header, code) => expect(fromAcceptLanguage(header, available)).toBe(code));
});

describe('language codes', () => {
  it.each([
    ['fr', 'fr'],
    ['PT-br', 'pt-BR'],
    ['sr-latn-rs', 'sr-Latn-RS'],
    ['zh-hant', 'zh-Hant'],
  ])('%j is stored as %j', (raw, code) => expect(canonicalCode(raw)).toBe(code));

  it.each(['', 'en_US', 'not a tag', 'abcdefghi', 'fr-', '-fr', 'x'.repeat(36), 'fr;', 'de\u0000'])('%j is not a BCP 47 tag we keep', (raw) => expect(canonicalCode(raw)).toBeNull());
});

describe('placeholders', () => {
  it('accepts a text with the same placeholders in any order', () => {
    expect(placeholderProblem('{count} of {total}', '{total} : {count}')).toBeNull();
    expect(placeholderProblem('Files', 'Fichiers')).toBeNull();
  });
  it('names a placeholder left out, then one made up', () => {
    expect(placeholderProblem('Hello {name}', 'Bonjour')).toEqual({ kind: 'missing', name: 'name' });
    expect(placeholderProblem('Hello {name}', 'Bonjour {name} {nom}')).toEqual({ kind: 'unknown', name: 'nom' });
  });
});

describe('If-None-Match', () => {
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['*', true],
    ['"abcd"', false],
    [null, false],
  ])('%j against "abc" matches: %j', (header, matches) => expect(etagMatches(header, '"abc"')).toBe(matches));
});
