import { describe, expect, it } from 'vitest';
import { attemptsAfter, catchUpPicks, MAX_THUMBNAIL_ATTEMPTS } from '../../src/server/previews/thumbnails.ts';

describe('thumbnail attempts (what the catch-up may retry)', () => {
  it('gives up at once on a refused or skipped file', () => {
    expect(attemptsAfter('refused', 0)).toBe(MAX_THUMBNAIL_ATTEMPTS);
    expect(attemptsAfter('skipped', 1)).toBe(MAX_THUMBNAIL_ATTEMPTS);
  });

  it('counts failures up to the limit and no further', () => {
    expect(attemptsAfter('failed', 0)).toBe(1);
    expect(attemptsAfter('failed', MAX_THUMBNAIL_ATTEMPTS - 1)).toBe(MAX_THUMBNAIL_ATTEMPTS);
    expect(attemptsAfter('failed', MAX_THUMBNAIL_ATTEMPTS)).toBe(MAX_THUMBNAIL_ATTEMPTS);
  });

  it('records nothing for a made thumbnail or a file that is gone', () => {
    expect(attemptsAfter('made', 0)).toBeNull();
    expect(attemptsAfter('gone', 2)).toBeNull();
    expect(attemptsAfter('unsupported', 0)).toBeNull();
  });

  it('knows the types the catch-up looks at (its SQL prefilter)', () => {
    for (const t of ['image/png', 'IMAGE/SVG+XML', 'video/mp4', 'application/pdf']) expect(catchUpPicks(t), t).toBe(true);
    for (const t of ['text/plain', 'application/zip', 'application/octet-stream', null]) expect(catchUpPicks(t), String(t)).toBe(false);
  });
});
