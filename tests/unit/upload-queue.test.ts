import type { UppyFile } from '@uppy/core';
import { describe, expect, it } from 'vitest';
import { queueEntries, queueProgress } from '../../src/components/uploads/queueEntries.ts';
import type { FinishedUpload, UploadMeta } from '../../src/stores/uploads.ts';

type File = UppyFile<UploadMeta, Record<string, never>>;

function file(id: string, order: number, size: number, progress: Partial<File['progress']>, extra: Partial<File> = {}): File {
  const meta = { name: id, type: 'text/plain', filename: id, filetype: 'text/plain', parent_id: '', path: '', extension: 'txt', order } as UploadMeta;
  return { id, name: id, size, meta, progress: { uploadStarted: null, uploadComplete: false, bytesUploaded: 0, bytesTotal: size, percentage: 0, ...progress }, ...extra } as File;
}

describe('the upload queue read from Uppy', () => {
  it('tells queued, sending, awaiting the server and failed files apart, in the order they were queued', () => {
    const small = {
      c: file('c', 2, 100, { uploadStarted: 1, bytesUploaded: 100 }),
      a: file('a', 0, 100, { uploadStarted: 1, bytesUploaded: 0 }),
    };
    const large = {
      b: file('b', 1, 1000, { uploadStarted: 1, bytesUploaded: 400 }),
      e: file('e', 4, 10, { uploadStarted: 1, bytesUploaded: 3 }, { error: 'Your storage is full.' }),
    };
    const finished: FinishedUpload[] = [{ id: 'd', order: 3, name: 'd', size: 50, path: 'Album', status: 'done' }];
    const rows = queueEntries([small, large], finished);
    expect(rows.map((r) => [r.id, r.status])).toEqual([
      ['a', 'queued'],
      ['b', 'uploading'],
      ['c', 'processing'],
      ['d', 'done'],
      ['e', 'error'],
    ]);
    expect(rows[1]!.bytes).toBe(400);
    expect(rows[3]!.path).toBe('Album');
    expect(rows[4]!.error).toBe('Your storage is full.');
  });

  it('sums one figure over the live files, leaving out failed and cancelled ones, and clears when all are done', () => {
    const rows = queueEntries(
      [{ a: file('a', 0, 100, { uploadStarted: 1, bytesUploaded: 50 }), e: file('e', 2, 900, {}, { error: 'x' }) }],
      [
        { id: 'b', order: 1, name: 'b', size: 100, path: null, status: 'done' },
        { id: 'c', order: 3, name: 'c', size: 800, path: null, status: 'cancelled' },
      ],
    );
    expect(queueProgress(rows)).toBe(75);
    expect(queueProgress(queueEntries([{}], [{ id: 'b', order: 1, name: 'b', size: 100, path: null, status: 'done' }]))).toBeNull();
    expect(queueProgress([])).toBeNull();
  });
});
