/**
 * JSON for a `<script type="application/json">` element: `<`, `>`, `&` and the line separators are
 * escaped so no value (an app name, a user's name) can close the element or break the page.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
