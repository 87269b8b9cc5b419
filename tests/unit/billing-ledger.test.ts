import { describe, expect, it } from 'vitest';
import { currencyDigits as minorDigits, formatMinor as formatForPage, parseMajor, toMajorText } from '../../src/components/billing/money.ts';
import { meteredLines } from '../../src/server/billing/metered.ts';
import type { Plan } from '../../src/server/billing/plans.ts';
import { adminRestrictionsFor, billingLimited, restrictionOverrides, restrictionsFor, withBillingLimit } from '../../src/server/users/restrictions.ts';

describe('billing’s limit beside the admin’s flags', () => {
  it('turns every flag off while set, and lifting it leaves the admin’s flags', () => {
    const admin = restrictionOverrides({ canUpload: true, canDownload: false, canCreateFolder: true, canCreateTeamFolder: true });
    const limited = withBillingLimit(admin, true);
    expect(billingLimited({ restrictions: limited })).toBe(true);
    expect(restrictionsFor({ restrictions: limited })).toEqual({ canUpload: false, canDownload: false, canCreateFolder: false, canCreateTeamFolder: false });
    expect(adminRestrictionsFor({ restrictions: limited })).toMatchObject({ canUpload: true, canDownload: false });
    // An admin's change keeps billing's limit; lifting the limit keeps the admin's flag.
    const changed = restrictionOverrides({ canUpload: true, canDownload: true, canCreateFolder: true, canCreateTeamFolder: true }, limited);
    expect(billingLimited({ restrictions: changed })).toBe(true);
    expect(withBillingLimit(limited, false)).toBe(admin);
    expect(withBillingLimit(null, false)).toBeNull();
  });
});

describe('money', () => {
  it('reads typed amounts as exact minor units per the currency’s digits', () => {
    expect(minorDigits('EUR')).toBe(2);
    expect(minorDigits('JPY')).toBe(0);
    expect(parseMajor('12.5', 'EUR')).toBe(1250);
    expect(parseMajor('0.07', 'EUR')).toBe(7);
    expect(parseMajor('19,99', 'EUR')).toBe(1999);
    expect(parseMajor('1.001', 'EUR')).toBeNull();
    expect(parseMajor('0', 'EUR')).toBeNull();
    expect(parseMajor('-3', 'EUR')).toBeNull();
    expect(parseMajor('500', 'JPY')).toBe(500);
    expect(parseMajor('5.5', 'JPY')).toBeNull();
    expect(toMajorText(1250, 'EUR')).toBe('12.50');
    expect(toMajorText(7, 'EUR')).toBe('0.07');
    expect(formatForPage(1234, 'EUR')).toBe('€12.34');
  });

  it('prices metered usage from millionths, rounded once per line', () => {
    const plan = { storage_gb_day_micros: 3300, bandwidth_gb_micros: 90_000, member_day_micros: 50_000, flat_fee_minor: 500 } as Plan;
    // 30 days of 100 GB: 3000 GB-days × 0.0033 = 9.90; 12.5 GB × 0.09 = 1.125 → 1.13; 60 member-days × 0.05 = 3.00.
    const lines = meteredLines(plan, { days: 30, storageByteDays: 3000n * 1_000_000_000n, bandwidthBytes: 12_500_000_000n, memberDays: 60n }, 'EUR');
    expect(lines.map((l) => l.amount_minor)).toEqual([990, 113, 300, 500]);
    expect(lines[0]).toMatchObject({ quantity: 3000, unit: 'GB-day' });
  });
});
