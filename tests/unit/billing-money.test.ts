import { describe, expect, it } from 'vitest';
import { decimalText, formatMicros, formatMinor, parseDecimal, parseMajor, toMajorText } from '../../src/components/billing/money.ts';
import { fromDecimal, toDecimal } from '../../src/server/billing/gateways/paypal.ts';
import { countries, currencies, gmtOffsets, isCurrency, timeZones } from '../../src/server/billing/geo.ts';
import { appRouteOf } from '../../src/islands/app/routes.ts';

describe('money on screen', () => {
  it('turns integers into exact decimal text and back, never through a float', () => {
    expect(decimalText(499, 2)).toBe('4.99');
    expect(decimalText(5, 2)).toBe('0.05');
    expect(decimalText(3300, 6)).toBe('0.003300');
    expect(decimalText(1200, 0)).toBe('1200');
    expect(parseDecimal('4.99', 2)).toBe(499);
    expect(parseDecimal('4,9', 2)).toBe(490);
    expect(parseDecimal('0.1', 2)).toBe(10);
    expect(parseDecimal('0.0033', 6)).toBe(3300);
    for (const bad of ['4.999', '-1', '1e3', 'abc', '', '1.2.3']) expect(parseDecimal(bad, 2)).toBeNull();
  });

  it('formats with the currency’s own minor unit', () => {
    expect(formatMinor(499, 'EUR', 'en')).toBe('€4.99');
    expect(formatMinor(1200, 'JPY', 'en')).toBe('¥1,200');
    expect(formatMicros(3300, 'USD', 'en')).toBe('$0.0033');
  });
});

describe('countries, currencies and time zones from Intl', () => {
  it('lists ISO 4217 currencies with their digits, and countries without groupings or private codes', () => {
    expect(isCurrency('EUR')).toBe(true);
    expect(isCurrency('XYZ')).toBe(false);
    expect(currencies().find((c) => c.code === 'JPY')).toMatchObject({ digits: 0, name: 'Japanese Yen' });
    const codes = countries().map((c) => c.code);
    expect(codes).toEqual(expect.arrayContaining(['DE', 'US', 'NG', 'JP']));
    for (const grouping of ['EU', 'UN', 'EZ', 'QO', 'XA', 'ZZ']) expect(codes).not.toContain(grouping);
    expect(timeZones().find((z) => z.id === 'Asia/Tokyo')?.offset).toBe('GMT+09:00');
    expect(gmtOffsets()).toHaveLength(25);
    expect(gmtOffsets()[0]).toBe('GMT-12');
  });
});

describe('plan routes', () => {
  it('reads /admin/plan/create/:type before a plan id, and only known types and tabs', () => {
    expect(appRouteOf('/admin/plan/create/fixed')).toBe('adminPlanCreate');
    expect(appRouteOf('/admin/plan/create/lifetime')).toBeNull();
    expect(appRouteOf('/admin/plan/abc/metered/settings')).toBe('adminPlan');
    expect(appRouteOf('/admin/plan/abc/fixed')).toBe('adminPlan');
    expect(appRouteOf('/admin/plan/abc/fixed/invoices')).toBeNull();
    expect(appRouteOf('/admin/subscriptions')).toBe('adminSubscriptions');
  });
});

describe('the one money module', () => {
  it('parses typed major units into minor units above 0 and shows them back, per the currency', () => {
    expect(parseMajor('12.5', 'EUR')).toBe(1250);
    expect(parseMajor('0', 'EUR')).toBeNull();
    expect(parseMajor('1.5', 'JPY')).toBeNull();
    expect(parseMajor('1.005', 'KWD')).toBe(1005);
    expect(toMajorText(5, 'EUR')).toBe('0.05');
    expect(toMajorText(1200, 'JPY')).toBe('1200');
    // Far past a float's exact range, still exact.
    expect(formatMinor(9_007_199_254_740_991, 'USD', 'en')).toBe('$90,071,992,547,409.91');
    expect(formatMinor(-1999, 'EUR', 'en')).toBe('-€19.99');
  });

  it('reads and writes PayPal’s decimal strings through it, refusing anything else', () => {
    expect(toDecimal(1000, 'USD')).toBe('10.00');
    expect(toDecimal(500, 'JPY')).toBe('500');
    expect(fromDecimal('10.00', 'USD')).toBe(1000);
    expect(fromDecimal('10', 'USD')).toBe(1000);
    for (const bad of ['10,00', '10.001', '-1', '', '1e3']) expect(fromDecimal(bad, 'USD')).toBeNull();
  });
});
