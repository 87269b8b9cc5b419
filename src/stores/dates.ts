/**
 * The one date format of the app, in the page's language: a day ("Nov 23, 2026"), or a day and a time
 * of day where the hour matters (expiries, notifications, token use).
 */
const locale = () => (typeof document === 'undefined' ? undefined : document.documentElement.lang || undefined);

export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium' }).format(new Date(iso));
}

export function formatDateTime(iso: string): string {
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
