import type { ItemWithCount } from '../files/queries.ts';
import { etagOf } from '../downloads/headers.ts';
import type { PropfindRequest } from './propfind-body.ts';

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

/** The live properties of the item (null: home), by their local name in DAV:, as element content. */
function liveProps(item: ItemWithCount | null, quota: Quota): Map<string, string> {
  const folder = item === null || item.type === 'folder';
  const props = new Map<string, string>();
  props.set('displayname', escapeXml(item?.name ?? ''));
  props.set('resourcetype', folder ? '<d:collection/>' : '');
  if (item) {
    props.set('creationdate', new Date(item.created_at).toISOString());
    props.set('getlastmodified', new Date(item.updated_at).toUTCString());
  }
  if (item && !folder) {
    props.set('getcontentlength', String(Number(item.size)));
    props.set('getcontenttype', escapeXml(item.mimetype ?? 'application/octet-stream'));
    if (item.blob_key) props.set('getetag', escapeXml(etagOf(item.blob_key, Number(item.size))));
  }
  if (folder) {
    props.set('quota-used-bytes', String(quota.used));
    if (quota.available !== null) props.set('quota-available-bytes', String(quota.available));
  }
  return props;
}

const element = (local: string, content: string) => (content ? `<d:${local}>${content}</d:${local}>` : `<d:${local}/>`);
const propstat = (props: string[], status: string) => `<d:propstat><d:prop>${props.join('')}</d:prop><d:status>HTTP/1.1 ${status}</d:status></d:propstat>`;
const attribute = (value: string) => escapeXml(value).replace(/"/g, '&quot;');

/**
 * One `<d:response>` for the item (null: home) at `names`: every live property (allprop), their
 * names (propname), or the ones asked for, those it does not have in a 404 propstat.
 */
export function responseXml(item: ItemWithCount | null, names: string[], quota: Quota, request: PropfindRequest = { kind: 'allprop' }): string {
  const folder = item === null || item.type === 'folder';
  const live = liveProps(item, quota);
  const stats: string[] = [];
  if (request.kind === 'prop') {
    const found: string[] = [];
    const missing: string[] = [];
    for (const name of request.names) {
      const value = name.ns === 'DAV:' ? live.get(name.local) : undefined;
      if (value !== undefined) found.push(element(name.local, value));
      else missing.push(name.ns === 'DAV:' ? `<d:${name.local}/>` : `<x:${name.local} xmlns:x="${attribute(name.ns)}"/>`);
    }
    if (found.length) stats.push(propstat(found, '200 OK'));
    if (missing.length) stats.push(propstat(missing, '404 Not Found'));
  } else {
    stats.push(propstat([...live].map(([local, value]) => element(local, request.kind === 'propname' ? '' : value)), '200 OK'));
  }
  return `<d:response><d:href>${escapeXml(hrefOf(names, folder))}</d:href>${stats.join('')}</d:response>`;
}

export function multistatus(responses: string[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:">${responses.join('')}</d:multistatus>\n`;
}

/** The body of a refusal with a DAV precondition (RFC 4918 §16), e.g. `propfind-finite-depth`. */
export function davError(condition: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:error xmlns:d="DAV:"><d:${condition}/></d:error>\n`;
}
