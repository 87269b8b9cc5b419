/**
 * Money on screen: amounts stay integers (minor units, or millionths of the major unit for metered
 * unit prices) and become decimal text only here, by string arithmetic, never through a float.
 */

/** Minor-unit digits of a currency as Intl formats it (2 for EUR, 0 for JPY, 3 for KWD). */
export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** An integer count of 10^-digits units as exact decimal text: (1999, 2) → "19.99". */
export function decimalText(units: number, digits: number): string {
  const sign = units < 0 ? '-' : '';
  const text = String(Math.abs(Math.trunc(units))).padStart(digits + 1, '0');
  return digits ? `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}` : `${sign}${text}`;
}

function format(decimal: string, currency: string, locale: string | undefined, maxDigits?: number): string {
  const options: Intl.NumberFormatOptions = { style: 'currency', currency, ...(maxDigits === undefined ? {} : { maximumFractionDigits: maxDigits }) };
  return new Intl.NumberFormat(locale, options).format(decimal as Intl.StringNumericLiteral);
}

/** A price in minor units, formatted for the locale: (499, 'EUR') → "€4.99". */
export function formatMinor(amountMinor: number, currency: string, locale?: string): string {
  return format(decimalText(amountMinor, currencyDigits(currency)), currency, locale);
}

/** A metered unit price in millionths of the major unit: (3300, 'USD') → "$0.0033". */
export function formatMicros(micros: number, currency: string, locale?: string): string {
  return format(decimalText(micros, 6), currency, locale, 6);
}

/**
 * Decimal text typed in major units ("4.99", "4,99", "5") as an integer count of 10^-digits
 * units; null when it is not a plain non-negative number or has more decimals than allowed.
 */
export function parseDecimal(text: string, digits: number): number | null {
  const match = /^(\d+)(?:[.,](\d*))?$/.exec(text.trim());
  if (!match) return null;
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > digits) return null;
  const units = Number(whole + fraction.padEnd(digits, '0'));
  return Number.isSafeInteger(units) ? units : null;
}
