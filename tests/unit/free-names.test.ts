import { describe, expect, it } from 'vitest';
import { freeNames, type NameRequest } from '../../src/server/files/free-names.ts';
import { nameKey, nextFreeName } from '../../src/server/files/names.ts';

/** What one item after another would get, each seeing the names taken before it. */
function oneByOne(existing: Map<string, string[]>, requests: NameRequest[]): string[] {
  const taken = new Map([...existing].map(([folder, names]) => [folder, new Set(names.map(nameKey))]));
  return requests.map((r) => {
    const keys = taken.get(r.folder) ?? new Set<string>();
    taken.set(r.folder, keys);
    const name = nextFreeName(r.name, r.isFile, (k) => keys.has(k));
    keys.add(nameKey(name));
    return name;
  });
}

function lookupOf(existing: Map<string, string[]>) {
  const calls: number[] = [];
  const lookup = async (pairs: { folder: string; key: string }[]) => {
    calls.push(pairs.length);
    const keys = new Set([...existing].flatMap(([folder, names]) => names.map((n) => `${folder}/${nameKey(n)}`)));
    return new Set(pairs.map((p) => `${p.folder}/${p.key}`).filter((k) => keys.has(k)));
  };
  return { lookup, calls };
}

describe('free names for a whole selection', () => {
  it('gives what one item after another would get, clashes within the selection included', async () => {
    const existing = new Map([
      ['a', ['report.pdf', 'report (1).pdf', 'report (3).pdf', 'Photos', 'notes (2).txt']],
      ['', ['report.pdf']],
    ]);
    const requests: NameRequest[] = [
      ...['report.pdf', 'REPORT.pdf', 'report (1).pdf', 'report (2).pdf', 'photos', 'Photos (1)', 'notes.txt', 'notes (2).txt', 'notes.txt'].map((name) => ({ folder: 'a', name, isFile: !/^photos/i.test(name) })),
      { folder: '', name: 'report.pdf', isFile: true },
      { folder: 'b', name: 'report.pdf', isFile: true },
    ];
    const { lookup } = lookupOf(existing);
    expect(await freeNames(requests, lookup)).toEqual(oneByOne(existing, requests));
  });

  it('asks a bounded number of times however many items clash', async () => {
    const existing = new Map([['t', Array.from({ length: 150 }, (_, n) => (n ? `same (${n}).txt` : 'same.txt'))]]);
    const requests = Array.from({ length: 1000 }, (_, i) => ({ folder: 't', name: i % 2 ? 'same.txt' : `other ${i}.txt`, isFile: true }));
    const { lookup, calls } = lookupOf(existing);
    expect(await freeNames(requests, lookup)).toEqual(oneByOne(existing, requests));
    expect(calls.length).toBeLessThanOrEqual(3);
  });
});
