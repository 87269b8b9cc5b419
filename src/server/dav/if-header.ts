import { badRequest } from '../http/errors.ts';

/** One condition of an If header list (RFC 4918 §10.4): a state token or an entity tag, maybe negated. */
export type IfCondition = { not: boolean; token: string } | { not: boolean; etag: string };

export interface IfList {
  /** The Resource-Tag's URL, or null for a list that applies to the request's URL. */
  resource: string | null;
  conditions: IfCondition[];
}

/**
 * Parses an If header (RFC 4918 §10.4): `(<token> ["etag"]) (Not <DAV:no-lock>)` or tagged
 * `<http://host/path> (<token>)`. Anything that does not follow the grammar is a 400.
 */
export function parseIfHeader(header: string): IfList[] {
  const lists: IfList[] = [];
  let i = 0;
  let resource: string | null = null;
  let tagged: boolean | null = null;
  const fail = (): never => {
    throw badRequest('The If header is malformed.');
  };
  const skipSpace = () => {
    while (i < header.length && /\s/.test(header[i]!)) i += 1;
  };
  const until = (end: string) => {
    const close = header.indexOf(end, i);
    if (close < 0) fail();
    const value = header.slice(i, close);
    i = close + 1;
    return value;
  };
  for (skipSpace(); i < header.length; skipSpace()) {
    const c = header[i];
    if (c === '<') {
      if (tagged === false) fail();
      tagged = true;
      i += 1;
      resource = until('>').trim();
      skipSpace();
      if (header[i] !== '(') fail();
      continue;
    }
    if (c !== '(') fail();
    if (tagged === null) tagged = false;
    i += 1;
    const conditions: IfCondition[] = [];
    for (skipSpace(); header[i] !== ')'; skipSpace()) {
      if (i >= header.length) fail();
      let not = false;
      if (/^not\b/i.test(header.slice(i, i + 4)) || header.slice(i, i + 3).toLowerCase() === 'not') {
        not = true;
        i += 3;
        skipSpace();
      }
      if (header[i] === '<') {
        i += 1;
        const token = until('>').trim();
        if (!token) fail();
        conditions.push({ not, token });
      } else if (header[i] === '[') {
        i += 1;
        const etag = until(']').trim();
        if (!etag) fail();
        conditions.push({ not, etag });
      } else fail();
    }
    i += 1;
    if (!conditions.length) fail();
    lists.push({ resource: tagged ? resource : null, conditions });
  }
  if (!lists.length) fail();
  return lists;
}

/** Every state token the header names (not negated): the lock tokens the request submits. */
export function submittedTokens(lists: IfList[]): Set<string> {
  return new Set(lists.flatMap((list) => list.conditions.flatMap((c) => ('token' in c && !c.not ? [c.token] : []))));
}
