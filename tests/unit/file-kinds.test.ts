import { describe, expect, it } from 'vitest';
import { fileKind, formatOf } from '../../src/components/fileKinds.ts';

describe('file kinds', () => {
  it.each([
    ['application/pdf', 'a.pdf', 'pdf'],
    ['text/markdown', 'notes.md', 'markdown'],
    ['text/plain', 'README.md', 'markdown'],
    ['text/csv', 'data.csv', 'csv'],
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'budget.xlsx', 'spreadsheet'],
    ['application/zip', 'budget.xlsx', 'spreadsheet'],
    ['application/zip', 'photos.zip', 'archive'],
    ['application/gzip', 'backup.tar.gz', 'archive'],
    ['audio/mpeg', 'song.mp3', 'audio'],
    ['video/mp4', 'clip.mp4', 'video'],
    ['image/png', 'shot.png', 'image'],
    ['text/plain', 'main.ts', 'code'],
    ['application/json', 'data.json', 'code'],
    ['text/plain', 'todo.txt', 'text'],
    ['application/octet-stream', 'thing.bin', 'other'],
    [null, 'noext', 'other'],
  ])('%s %s is %s', (mimetype, name, kind) => expect(fileKind(mimetype, name)).toBe(kind));

  it('names the format from the extension, else the subtype', () => {
    expect(formatOf('image/png', 'shot.png')).toBe('PNG');
    expect(formatOf('audio/mpeg', 'noext')).toBe('MP3');
    expect(formatOf('image/x-icon', 'favicon')).toBe('ICON');
  });
});
