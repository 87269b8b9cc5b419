import { createHash } from 'node:crypto';
import { encodeExtended } from 'content-disposition';

/**
 * How a stored file is presented to a browser. The stored MIME type came from a client once, so it is
 * trusted only through an allowlist: types that a browser shows without running anything of ours are
 * served inline under their own type; everything else is `application/octet-stream` as an attachment.
 * Anything that could run script in our origin (HTML, SVG, XML, JavaScript…) is therefore never
 * inline, and every answer but a plain image/video/audio preview also carries a sandboxing CSP and
 * nosniff. A PDF can hold JavaScript (and forms that post): it is shown inline only under a CSP that
 * sandboxes it and allows no script or connection; Chromium's and Firefox's viewers still render it.
 */

/** Served inline under their own type. */
const INLINE_MEDIA = new Set([
  'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/x-icon', 'image/vnd.microsoft.icon',
  'video/mp4', 'video/webm', 'video/ogg', 'video/quicktime',
  'audio/mpeg', 'audio/mp4', 'audio/aac', 'audio/ogg', 'audio/opus', 'audio/wav', 'audio/x-wav', 'audio/wave', 'audio/webm', 'audio/flac', 'audio/x-flac',
]);

/** Text shown inline, always as text/plain (a browser renders it, never interprets it). */
const INLINE_TEXT = new Set(['text/plain', 'text/csv', 'text/markdown', 'text/x-markdown', 'text/tab-separated-values', 'application/json', 'text/x-log']);

export const SANDBOX_CSP = "sandbox; default-src 'none'";
/**
 * PDF previews: sandboxed (an opaque origin, no scripts, no forms, no popups), nothing fetched but its
 * own images and the inline styles of the browser's viewer page, and framed only by our own pages
 * (the file area's preview).
 */
export const PDF_PREVIEW_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data: blob:; script-src 'none'; form-action 'none'; frame-ancestors 'self'";

export interface Presentation {
  contentType: string;
  inline: boolean;
  /** A `Content-Security-Policy` to send, or null for a plain image/video/audio preview. */
  csp: string | null;
}

export function presentationOf(mimetype: string | null, forceDownload: boolean): Presentation {
  const type = (mimetype ?? '').toLowerCase().split(';')[0]!.trim();
  if (!forceDownload && INLINE_MEDIA.has(type)) return { contentType: type, inline: true, csp: null };
  if (!forceDownload && type === 'application/pdf') return { contentType: type, inline: true, csp: PDF_PREVIEW_CSP };
  if (!forceDownload && INLINE_TEXT.has(type)) return { contentType: 'text/plain; charset=utf-8', inline: true, csp: SANDBOX_CSP };
  return { contentType: 'application/octet-stream', inline: false, csp: SANDBOX_CSP };
}

/** The name with everything but printable ASCII (and the quote and backslash) replaced by `_`. */
export function asciiFallback(name: string): string {
  const ascii = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  // eslint-disable-next-line no-control-regex
  const safe = ascii.replace(/[^\x20-\x7e]|["\\%]/g, '_').trim();
  return safe || 'download';
}

/**
 * `inline|attachment; filename="ascii"` plus `filename*=UTF-8''…` (RFC 8187) whenever the ASCII
 * fallback is not the name itself. The fallback never holds a quote, a backslash, CR or LF.
 */
export function contentDisposition(name: string, inline: boolean): string {
  const type = inline ? 'inline' : 'attachment';
  const fallback = asciiFallback(name);
  if (fallback === name) return `${type}; filename="${fallback}"`;
  return `${type}; filename="${fallback}"; filename*=${encodeExtended(name)}`;
}

/** A strong validator for the bytes: the blob key names one immutable blob, the size guards its end. */
export function etagOf(blobKey: string, size: number): string {
  return `"${createHash('sha256').update(`${blobKey}\n${size}`).digest('base64url').slice(0, 27)}"`;
}

/** Any of the listed entity tags matches (weak comparison, as If-None-Match uses); `*` matches anything. */
export function etagListMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

/** HTTP dates have whole seconds. */
export function httpDateSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

export function parseHttpDate(value: string | undefined): number | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}
