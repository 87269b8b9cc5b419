import { describe, expect, it } from 'vitest';
import { routeLabel, STATIC, statusClass, UNMATCHED } from '../../src/server/metrics/route-label.ts';

describe('the route label of request metrics', () => {
  it('names a data route by its name', () => {
    expect(routeLabel({ kind: 'data', name: 'file download' })).toBe('file download');
  });

  it('uses the Astro route pattern, parameters left as they are', () => {
    for (const pattern of ['/', '/api/user', '/api/browse/folders/[...id]', '/share/[token]/files/[...id]', '/api/share/[token]', '/sitemap.xml', '/admin/settings/[...tab]']) {
      expect(routeLabel({ kind: 'astro', pattern }), pattern).toBe(pattern);
    }
  });

  it('counts Astro without a pattern, its own 404 and anything that looks like a raw path as unmatched', () => {
    const raw = [undefined, '', '/404', 'api/user', '/api/browse/folders/6f1c0a9e-3b1d-4c8e-9a55-0c7f2b1d9e11?x=1', '/file/abc%20def', '/a b', `/${'x'.repeat(250)}`, '/api/[id'];
    for (const pattern of raw) expect(routeLabel({ kind: 'astro', pattern }), String(pattern)).toBe(UNMATCHED);
  });

  it('labels built assets and unmatched requests by fixed names', () => {
    expect(routeLabel({ kind: 'static' })).toBe(STATIC);
    expect(routeLabel({ kind: 'unmatched' })).toBe(UNMATCHED);
  });

  it('groups statuses in classes, and a client gone before any answer as aborted', () => {
    expect([101, 200, 206, 304, 404, 429, 503].map(statusClass)).toEqual(['1xx', '2xx', '2xx', '3xx', '4xx', '4xx', '5xx']);
    expect(statusClass(null)).toBe('aborted');
    expect(statusClass(99)).toBe('aborted');
  });
});
