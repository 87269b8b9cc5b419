import type { ItemWithCount } from '../files/queries.ts';
import { etagOf } from '../downloads/headers.ts';
import type { DavLock } from './locks.ts';
import type { PropfindRequest } from './propfind-body.ts';
import { escapeXml, propertyElement } from './xml-tree.ts';

/** XML text escaping (names may hold & and <); every value here is element text, never an attribute. */
export { escapeXml };

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

/** A dead property (PROPPATCH): its name and its content as serialised XML. */
export interface DeadProp {
  ns: string;
  name: string;
  value_xml: string;
}

/** What a response shows besides the item's own columns: its dead properties and the locks on it. */
export interface Extras {
  dead: DeadProp[];
  locks: DavLock[];
  now: Date;
}

const SUPPORTED_LOCK = ['exclusive', 'shared'].map((scope) => `<d:lockentry><d:lockscope><d:${scope}/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockentry>`).join('');

/** One `DAV:activelock` (RFC 4918 §14.1): its timeout is what is left of it. */
export function activeLock(lock: DavLock, now: Date): string {
  const left = Math.max(0, Math.ceil((Date.parse(lock.expires_at) - now.getTime()) / 1000));
  const owner = lock.owner_xml ? `<d:owner>${lock.owner_xml}</d:owner>` : '';
  return `<d:activelock><d:locktype><d:write/></d:locktype><d:lockscope><d:${lock.scope}/></d:lockscope><d:depth>${lock.depth}</d:depth>${owner}<d:timeout>Second-${left}</d:timeout><d:locktoken><d:href>urn:uuid:${lock.id}</d:href></d:locktoken><d:lockroot><d:href>${escapeXml(lock.href)}</d:href></d:lockroot></d:activelock>`;
}

/** The body of a LOCK's answer: the lock in a DAV:lockdiscovery. */
export function lockAnswer(lock: DavLock, now: Date): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:prop xmlns:d="DAV:"><d:lockdiscovery>${activeLock(lock, now)}</d:lockdiscovery></d:prop>\n`;
}

/** The live properties of the item (null: home), by their local name in DAV:, as element content. */
function liveProps(item: ItemWithCount | null, quota: Quota, extras: Extras): Map<string, string> {
  const folder = item === null || item.type === 'folder';
  const props = new Map<string, string>();
  props.set('displayname', escapeXml(item?.name ?? ''));
  props.set('resourcetype', folder ? '<d:collection/>' : '');
  props.set('supportedlock', SUPPORTED_LOCK);
  props.set('lockdiscovery', extras.locks.map((lock) => activeLock(lock, extras.now)).join(''));
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

const propstat = (props: string[], status: string) => `<d:propstat><d:prop>${props.join('')}</d:prop><d:status>HTTP/1.1 ${status}</d:status></d:propstat>`;

/**
 * One `<d:response>` for the item (null: home) at `names`: every live and dead property
 * (allprop), their names (propname), or the ones asked for, those it does not have in a 404 propstat.
 */
export function responseXml(item: ItemWithCount | null, names: string[], quota: Quota, request: PropfindRequest = { kind: 'allprop' }, extras: Extras = { dead: [], locks: [], now: new Date() }): string {
  const folder = item === null || item.type === 'folder';
  const live = liveProps(item, quota, extras);
  const stats: string[] = [];
  if (request.kind === 'prop') {
    const found: string[] = [];
    const missing: string[] = [];
    for (const name of request.names) {
      const value = name.ns === 'DAV:' ? live.get(name.local) : extras.dead.find((p) => p.ns === name.ns && p.name === name.local)?.value_xml;
      if (value !== undefined) found.push(propertyElement(name.ns, name.local, value));
      else missing.push(propertyElement(name.ns, name.local));
    }
    if (found.length) stats.push(propstat(found, '200 OK'));
    if (missing.length) stats.push(propstat(missing, '404 Not Found'));
  } else {
    const all = [...[...live].map(([local, value]) => ({ ns: 'DAV:', name: local, value_xml: value })), ...extras.dead];
    stats.push(propstat(all.map((p) => propertyElement(p.ns, p.name, request.kind === 'propname' ? '' : p.value_xml)), '200 OK'));
  }
  return `<d:response><d:href>${escapeXml(hrefOf(names, folder))}</d:href>${stats.join('')}</d:response>`;
}

/** A PROPPATCH's answer for one resource: the property names grouped by their status. */
export function patchResponseXml(href: string, results: { ns: string; name: string; status: string }[]): string {
  const byStatus = new Map<string, string[]>();
  for (const r of results) byStatus.set(r.status, [...(byStatus.get(r.status) ?? []), propertyElement(r.ns, r.name)]);
  return `<d:response><d:href>${escapeXml(href)}</d:href>${[...byStatus].map(([status, props]) => propstat(props, status)).join('')}</d:response>`;
}

export function multistatus(responses: string[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:">${responses.join('')}</d:multistatus>\n`;
}

/** The body of a refusal with a DAV precondition (RFC 4918 §16), e.g. `propfind-finite-depth`. */
export function davError(condition: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:error xmlns:d="DAV:"><d:${condition}/></d:error>\n`;
}
