/** Fills a catalogue string, shared by the islands' `t()` and the Astro pages' translator. */
export function translate(catalogue: Readonly<Record<string, string>> | null, key: string, params?: Record<string, string | number>): string {
  // A count of exactly one picks the `_one` variant when the catalogue has it ("1 item", not "1 items").
  const one = params?.count === 1 ? catalogue?.[`${key}_one`] : undefined;
  const template = one ?? catalogue?.[key] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
