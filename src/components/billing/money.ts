/**
 * The one money module (pages, islands and the server's invoices and notifications): amounts stay
 * integers (minor units, or millionths of the major unit for metered unit prices) and become
 * decimal text only here, by string arithmetic, never through a float; typed text comes back the
 * same way.
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

/** In the browser, the page's language (the app's, not the browser's); on the server, the runtime's default. */
function pageLocale(): string | undefined {
  return (typeof document === 'undefined' ? '' : document.documentElement.lang) || undefined;
}

/** A price in minor units, formatted for the locale (the page's by default): (499, 'EUR') → "€4.99". */
export function formatMinor(amountMinor: number, currency: string, locale: string | undefined = pageLocale()): string {
  return format(decimalText(amountMinor, currencyDigits(currency)), currency, locale);
}

/** Minor units as the major-unit text an input shows: (1250, 'EUR') → "12.50". */
export function toMajorText(amountMinor: number, currency: string): string {
  return decimalText(amountMinor, currencyDigits(currency));
}

/** A metered unit price in millionths of the major unit: (3300, 'USD') → "$0.0033". */
export function formatMicros(micros: number, currency: string, locale: string | undefined = pageLocale()): string {
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

/** A typed amount of money in major units ("12.5", "12,50") as minor units of the currency; null unless it is above 0. */
export function parseMajor(text: string, currency: string): number | null {
  const units = parseDecimal(text, currencyDigits(currency));
  return units !== null && units > 0 ? units : null;
}
