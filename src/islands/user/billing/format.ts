/** Money for display: integer minor units of an ISO 4217 currency, formatted by Intl (never stored as a float). */
export function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

export function formatMoney(amountMinor: number, currency: string): string {
  const locale = typeof document === 'undefined' ? 'en' : document.documentElement.lang || 'en';
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amountMinor / 10 ** minorDigits(currency));
}

/** A typed major-unit amount ("12.5") as minor units, exactly (string arithmetic, no float); null when not a valid amount. */
export function parseMajor(text: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const match = /^(\d{1,12})(?:[.,](\d*))?$/.exec(text.trim());
  if (!match || (match[2] ?? '').length > digits) return null;
  const minor = Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || 0);
  return minor > 0 ? minor : null;
}

/** Minor units as the major-unit text an input shows ("12.50"). */
export function toMajorText(amountMinor: number, currency: string): string {
  const digits = minorDigits(currency);
  if (!digits) return String(amountMinor);
  const s = String(amountMinor).padStart(digits + 1, '0');
  return `${s.slice(0, -digits)}.${s.slice(-digits)}`;
}
