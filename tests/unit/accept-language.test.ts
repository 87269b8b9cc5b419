import { describe, expect, it } from 'vitest';
import { fromAcceptLanguage } from '../../src/server/i18n/locales.ts';

describe('Accept-Language', () => {
  it.each([
    ['de', 'de'],
    ['de-CH', 'de'],
    ['fr-FR,fr;q=0.9,de;q=0.8,en;q=0.7', 'de'],
    ['en-GB,en;q=0.9,de;q=0.8', 'en'],
    ['de;q=0.1, en', 'en'],
    ['de;q=0, en;q=0.1', 'en'],
    ['*', null],
    ['fr, es', null],
    ['', null],
    [';;;,,,q=', null],
    ['de;q=abc', null],
  ])('%j picks %j', (header, locale) => expect(fromAcceptLanguage(header)).toBe(locale));
});
