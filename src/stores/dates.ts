/**
 * The one date format of the app, in the page's language: a day ("Nov 23, 2026"), or a day and a time
 * of day where the hour matters (expiries, notifications, token use).
 */
const locale = () => (typeof document === 'undefined' ? undefined : document.documentElement.lang || undefined);


/** Making a formatter costs far more than using one (a list of 200 rows made 200): one per language and style. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(style: 'date' | 'dateTime'): Intl.DateTimeFormat {
  const lang = locale();
  const key = `${style}:${lang ?? ''}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(lang, style === 'date' ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' });
    formatters.set(key, made);
  }
  return made;
}

export function formatDate(iso: string): string {
  return formatter('date').format(new Date(iso));
}

export function formatDateTime(iso: string): string {
  return formatter('dateTime').format(new Date(iso));
}
