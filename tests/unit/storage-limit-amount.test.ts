import { describe, expect, it } from 'vitest';
import { LIMIT_UNITS, limitAmount } from '../../src/islands/admin/users/userStorage.ts';

const { MB, GB, TB } = LIMIT_UNITS;

describe('limitAmount (the admin storage tab shows a saved limit again)', () => {
  it.each([
    [5 * GB, { amount: '5', unit: 'GB' }],
    [1.5 * GB, { amount: '1.5', unit: 'GB' }],
    [1536 * MB, { amount: '1.5', unit: 'GB' }],
    [MB, { amount: '1', unit: 'MB' }],
    [2 * TB, { amount: '2', unit: 'TB' }],
    [1023 * GB, { amount: '1023', unit: 'GB' }],
    [1_300_000_000, { amount: '1239.776611', unit: 'MB' }],
  ])('%d bytes in the largest unit that shows it exactly: %o', (bytes, expected) => {
    expect(limitAmount(bytes)).toEqual(expected);
  });

  it('keeps a limit below 1 MB precise enough to save the same bytes again', () => {
    const shown = limitAmount(10);
    expect(shown.unit).toBe('MB');
    expect(Math.round(Number(shown.amount) * MB)).toBe(10);
    const odd = limitAmount(123_456_789);
    expect(Math.round(Number(odd.amount) * LIMIT_UNITS[odd.unit])).toBe(123_456_789);
  });
});
