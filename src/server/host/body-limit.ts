/**
 * The largest body a page or JSON endpoint (everything Astro serves) accepts. File bytes go to the
 * data plane, which has its own limits; this only bounds forms and JSON. astro.config.mjs hands it to
 * the Node adapter, and the HTTP server refuses a larger declared Content-Length before reading it.
 */
export const API_BODY_LIMIT_BYTES = 12 * 1024 * 1024;
