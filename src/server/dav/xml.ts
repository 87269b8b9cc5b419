import type { ItemWithCount } from '../files/queries.ts';
import { etagOf } from '../downloads/headers.ts';

/** XML text escaping (names may hold & and <); every value here is element text, never an attribute. */
export function escapeXml(value: string): string {
  return value.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
}

/** A path's href: each name percent-encoded, folders ending in `/`. */
export function hrefOf(names: string[], folder: boolean): string {
  const path = ['/dav', ...names.map((n) => encodeURIComponent(n))].join('/');
  return folder ? `${path}/` : path;
}

export interface Quota {
  used: number;
  /** Null when there is no quota (the property is then left out). */
  available: number | null;
}

/** One `<d:response>`: the item (null: home) at `names`, with every live property it has. */
export function responseXml(item: ItemWithCount | null, names: string[], quota: Quota): string {
  const folder = item === null || item.type === 'folder';
  const props: string[] = [];
  props.push(`<d:displayname>${escapeXml(item?.name ?? '')}</d:displayname>`);
  props.push(folder ? '<d:resourcetype><d:collection/></d:resourcetype>' : '<d:resourcetype/>');
  if (item) {
    props.push(`<d:creationdate>${new Date(item.created_at).toISOString()}</d:creationdate>`);
    props.push(`<d:getlastmodified>${new Date(item.updated_at).toUTCString()}</d:getlastmodified>`);
  }
  if (item && !folder) {
    props.push(`<d:getcontentlength>${Number(item.size)}</d:getcontentlength>`);
    props.push(`<d:getcontenttype>${escapeXml(item.mimetype ?? 'application/octet-stream')}</d:getcontenttype>`);
    if (item.blob_key) props.push(`<d:getetag>${escapeXml(etagOf(item.blob_key, Number(item.size)))}</d:getetag>`);
  }
  if (folder) {
    props.push(`<d:quota-used-bytes>${quota.used}</d:quota-used-bytes>`);
    if (quota.available !== null) props.push(`<d:quota-available-bytes>${quota.available}</d:quota-available-bytes>`);
  }
  return `<d:response><d:href>${escapeXml(hrefOf(names, folder))}</d:href><d:propstat><d:prop>${props.join('')}</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;
}

export function multistatus(responses: string[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:">${responses.join('')}</d:multistatus>\n`;
}

/** The body of a refusal with a DAV precondition (RFC 4918 §16), e.g. `propfind-finite-depth`. */
export function davError(condition: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:error xmlns:d="DAV:"><d:${condition}/></d:error>\n`;
}
