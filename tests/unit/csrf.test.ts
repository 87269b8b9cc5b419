import { describe, expect, it } from 'vitest';
import { isSameOrigin, isUnsafe } from '../../src/server/http/csrf.ts';

const origin = 'https://drive.example.com';

describe('isSameOrigin', () => {
  it.each([
    [{ origin }, true],
    [{ origin: 'https://drive.example.com.evil.net' }, false],
    [{ origin: 'http://drive.example.com' }, false],
    [{ origin: 'null' }, false],
    [{ 'sec-fetch-site': 'same-origin' }, true],
    [{ 'sec-fetch-site': 'cross-site' }, false],
    [{ 'sec-fetch-site': 'same-site' }, false],
    [{}, false],
  ])('%j → %s', (headers, expected) => {
    expect(isSameOrigin(new Headers(headers), origin)).toBe(expected);
  });
});

describe('isUnsafe', () => {
  it('treats only GET, HEAD and OPTIONS as safe', () => {
    expect(['GET', 'head', 'OPTIONS'].map(isUnsafe)).toEqual([false, false, false]);
    expect(['POST', 'PUT', 'PATCH', 'DELETE'].map(isUnsafe)).toEqual([true, true, true, true]);
  });
});
