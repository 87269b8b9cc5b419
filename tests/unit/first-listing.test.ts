import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { firstListingUrls } from '../../src/server/config/first-listing.ts';
import { FIRST_LISTING_SCRIPT } from '../../src/server/http/csp.ts';
import { appRouteMatch } from '../../src/islands/app/routes.ts';
import { isSorting, listUrl, openingSource, SORT_DEFAULT, SORT_FIELDS } from '../../src/stores/listing-url.ts';

const ID = '0b7c3f0e-1b2a-4c3d-9e8f-001122334455';

/** Runs the document's early script as a browser would, with this page's JSON and saved sorting; answers the address it asked for. */
function addressAsked(urlsJson: string | null, saved: string | null): string | null {
  const asked: string[] = [];
  const window: Record<string, unknown> = {};
  runInNewContext(FIRST_LISTING_SCRIPT.source, {
    window,
    document: { getElementById: (id: string) => (id === 'app-first-listing' && urlsJson !== null ? { textContent: urlsJson } : null) },
    localStorage: { getItem: (key: string) => (key === 'sorting' ? saved : null) },
    fetch: (url: string, init: { headers: Record<string, string>; credentials: string }) => {
      expect(init.headers['X-Requested-With']).toBe('XMLHttpRequest');
      expect(init.credentials).toBe('same-origin');
      asked.push(url);
      return Promise.resolve('answer');
    },
  });
  expect(asked.length).toBeLessThanOrEqual(1);
  if (asked.length === 1) expect((window.__firstListing as { url: string }).url).toBe(asked[0]);
  return asked[0] ?? null;
}

const SAVED: (string | null)[] = [
  null,
  '{not json',
  '"name"',
  JSON.stringify({ field: 'bogus', direction: 'asc' }),
  JSON.stringify({ field: 'name', direction: 'up' }),
  JSON.stringify({ field: 'constructor', direction: 'desc' }),
  ...SORT_FIELDS.flatMap((field) => ['asc', 'desc'].map((direction) => JSON.stringify({ field, direction }))),
];

describe('the first listing the document asks for', () => {
  const paths = ['/platform/files', `/platform/files/${ID}`, '/platform/files/', '/platform/trash', `/platform/trash/${ID}`, '/platform/recent-uploads', '/platform/team-folders', `/platform/team-folders/${ID}`, '/platform/shared-with-me', `/platform/shared-with-me/${ID}`, '/platform/files/a%20b%2Fc'];

  it('is the very address the file area asks for, whatever sorting the browser saved', () => {
    for (const path of paths) {
      const match = appRouteMatch(path);
      const source = match && openingSource(match.route, match.params);
      expect(source, path).not.toBeNull();
      if (!source) continue;
      for (const saved of SAVED) {
        let parsed: unknown = null;
        try {
          parsed = saved === null ? null : JSON.parse(saved);
        } catch {
          parsed = null;
        }
        const sorting = isSorting(parsed) ? parsed : SORT_DEFAULT;
        expect(addressAsked(firstListingUrls(path), saved), `${path} ${saved}`).toBe(listUrl(source, sorting, null));
      }
    }
  });

  it('decodes a folder id from the path and encodes it again in the address', () => {
    expect(addressAsked(firstListingUrls('/platform/files/a%20b%2Fc'), null)).toBe('/api/browse/folders/a%20b%2Fc?sort=created_at&direction=desc&limit=200');
  });

  it('is not asked for on screens that open no listing, nor on a page without the addresses', () => {
    for (const path of ['/platform/my-shared-items', '/user/profile', '/admin/dashboard', '/nowhere']) expect(firstListingUrls(path), path).toBeNull();
    expect(addressAsked(null, null)).toBeNull();
  });

  it('carries JSON that cannot end its script element', () => {
    const text = firstListingUrls('/platform/files/%3C%2Fscript%3E') ?? '';
    expect(text).not.toContain('<');
    expect(addressAsked(text, null)).toBe('/api/browse/folders/%3C%2Fscript%3E?sort=created_at&direction=desc&limit=200');
  });
});
