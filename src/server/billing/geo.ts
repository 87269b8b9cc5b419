/**
 * Countries, currencies and time zones (SPEC §9) from the runtime's own CLDR and IANA data
 * (`Intl`), so they stay as current as Node's ICU and no table is written by hand.
 */
import { currencyDigits } from '../../components/billing/money.ts';

export interface Currency {
  code: string;
  name: string;
  /** Digits after the decimal point of the minor unit (2 for USD, 0 for JPY, 3 for KWD). */
  digits: number;
}

export interface Country {
  code: string;
  name: string;
}

const currencyCodes = new Set(Intl.supportedValuesOf('currency'));

export function isCurrency(code: string): boolean {
  return currencyCodes.has(code);
}

/** Minor-unit digits of an ISO 4217 currency, as Intl formats it (the one money module's). */
export { currencyDigits };

export function currencies(locale = 'en'): Currency[] {
  const names = new Intl.DisplayNames([locale], { type: 'currency', fallback: 'code' });
  return [...currencyCodes].map((code) => ({ code, name: names.of(code) ?? code, digits: currencyDigits(code) }));
}

/**
 * Every two-letter region Intl names that has time zones of its own: that keeps the countries and
 * territories and leaves out groupings (EU, UN), private-use codes (XA, ZZ) and unknown ones.
 */
export function countries(locale = 'en'): Country[] {
  const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
  const out: Country[] = [];
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      const name = names.of(code);
      if (!name || name === code || !regionTimeZones(code).length) continue;
      out.push({ code, name });
    }
  }
  return out.sort((x, y) => x.name.localeCompare(y.name, locale));
}

function regionTimeZones(region: string): string[] {
  const place = new Intl.Locale('und', { region }) as Intl.Locale & { getTimeZones?: () => string[] | undefined; timeZones?: string[] };
  return place.getTimeZones?.() ?? place.timeZones ?? [];
}

/** The IANA time zones, with their offset from GMT now (e.g. "GMT+02:00"). */
export function timeZones(at = new Date()): { id: string; offset: string }[] {
  return Intl.supportedValuesOf('timeZone').map((id) => ({ id, offset: gmtOffset(id, at) }));
}

function gmtOffset(timeZone: string, at: Date): string {
  const part = new Intl.DateTimeFormat('en', { timeZone, timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName');
  return part?.value ?? 'GMT';
}

/** The whole-hour offsets GMT -12 to +12 of SPEC §9. */
export function gmtOffsets(): string[] {
  return Array.from({ length: 25 }, (_, i) => i - 12).map((h) => (h === 0 ? 'GMT' : `GMT${h > 0 ? '+' : '-'}${Math.abs(h)}`));
}
