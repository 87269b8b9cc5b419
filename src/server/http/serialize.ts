/**
 * JSON for a `<script type="application/json">` element: `<`, `>`, `&` and the line separators are
 * escaped so no value (an app name, a user's name) can close the element or break the page.
 */
export function jsonForScript(value: unknown): string {
  return escapeJsonForScript(JSON.stringify(value));
}

/** `jsonForScript` for text that is JSON already (a cached catalogue), escaped the same way. */
export function escapeJsonForScript(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
