// WebDAV (src/server/dav/): locks and dead properties.

/** A WebDAV write lock on a path of an account's /dav/ namespace (src/server/dav/locks.ts). */
export interface DavLocksTable {
  /** The token's UUID: the lock token is `urn:uuid:<id>`. */
  id: string;
  owner_id: string;
  /** Name keys joined by '/'; '' is the home folder. */
  path_key: string;
  href: string;
  scope: 'exclusive' | 'shared';
  depth: '0' | 'infinity';
  owner_xml: string;
  timeout_seconds: number;
  expires_at: string;
  created_at: string;
}

/** A WebDAV dead property of an item (PROPPATCH; src/server/dav/properties.ts). */
export interface DavPropertiesTable {
  item_id: string;
  ns: string;
  name: string;
  value_xml: string;
  updated_at: string;
}
