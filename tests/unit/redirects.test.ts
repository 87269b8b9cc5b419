import { describe, expect, it } from 'vitest';
import { isAuthArea, safeRedirectPath } from '../../src/server/http/redirects.ts';

describe('safeRedirectPath', () => {
  it.each([
    ['/platform/files/1?x=1#y', '/platform/files/1?x=1#y'],
    ['/user/profile', '/user/profile'],
  ])('keeps the same-origin path %s', (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });

  it.each(['https://evil.example', '//evil.example', '/\\evil.example', '\\\\evil', 'javascript:alert(1)', '', '/\u0000x', 'x'.repeat(3000), 42, null, undefined])(
    'falls back for %j',
    (input) => {
      expect(safeRedirectPath(input)).toBe('/platform/files');
    },
  );
});

describe('isAuthArea', () => {
  it.each([
    ['/admin', true],
    ['/admin/users', true],
    ['/user/profile', true],
    ['/platform/files', true],
    ['/platforms', false],
    ['/sign-in', false],
    ['/', false],
    ['/users', false],
  ])('%s → %s', (path, expected) => {
    expect(isAuthArea(path)).toBe(expected);
  });
});
