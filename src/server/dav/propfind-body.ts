import { SaxesParser } from 'saxes';
import { badRequest } from '../http/errors.ts';

export interface PropName {
  ns: string;
  local: string;
}

/** What a PROPFIND asks for (RFC 4918 §9.1): every property, their names only, or the named ones. */
export type PropfindRequest = { kind: 'allprop' } | { kind: 'propname' } | { kind: 'prop'; names: PropName[] };

/**
 * Reads a PROPFIND body: empty is allprop; XML that is not well-formed, or breaks the namespace
 * rules (an unbound prefix, a prefix declared empty), or has no DAV:propfind root, is a 400.
 * Parsed as a stream of events (saxes); the body is already bounded by the caller.
 */
export function parsePropfind(body: string): PropfindRequest {
  if (!body.trim()) return { kind: 'allprop' };
  const parser = new SaxesParser({ xmlns: true });
  let depth = 0;
  let root = false;
  let kind: PropfindRequest['kind'] | null = null;
  let inProp = false;
  const names: PropName[] = [];
  parser.on('opentag', (tag) => {
    depth += 1;
    const dav = tag.uri === 'DAV:';
    if (depth === 1) root = dav && tag.local === 'propfind';
    else if (depth === 2 && dav && (tag.local === 'allprop' || tag.local === 'propname' || tag.local === 'prop')) {
      kind ??= tag.local;
      inProp = tag.local === 'prop';
    } else if (depth === 3 && inProp) names.push({ ns: tag.uri, local: tag.local });
  });
  parser.on('closetag', () => {
    depth -= 1;
    if (depth === 1) inProp = false;
  });
  try {
    parser.write(body).close();
  } catch (error) {
    throw badRequest(`The PROPFIND body is not well-formed XML (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (!root) throw badRequest('The PROPFIND body must be a DAV:propfind element.');
  if (kind === 'prop') return { kind, names };
  if (kind === 'propname') return { kind };
  return { kind: 'allprop' };
}
