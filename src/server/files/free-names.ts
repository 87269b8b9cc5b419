import { candidateName, nameKey } from './names.ts';

/**
 * Free names for a whole selection at once (a move, a restore): each item keeps its name when it
 * is free in its folder, else gets the next free `name (n).ext`, in the selection's order, as if
 * the items arrived one after another; names given to earlier items count as taken. The lookups
 * are batched: every item's own name in one round, then for each clashing name family (the names
 * that share `base (n).ext`) a window of candidates sized to its clashes, widened only when a
 * window runs out, so the number of queries does not grow with the selection.
 */
export interface NameRequest {
  /** The folder the item lands in ('' for home); names are unique per folder. */
  folder: string;
  name: string;
  isFile: boolean;
}

/** Answers which of these (folder, name key) pairs are taken, as `folder/key` strings. */
export type TakenLookup = (pairs: { folder: string; key: string }[]) => Promise<Set<string>>;

const pairKey = (folder: string, key: string) => `${folder}/${key}`;

export async function freeNames(requests: NameRequest[], lookup: TakenLookup): Promise<string[]> {
  const taken = new Set<string>();
  const asked = new Set<string>();
  const ask = async (pairs: { folder: string; key: string }[]) => {
    const fresh = pairs.filter((p) => {
      const k = pairKey(p.folder, p.key);
      return !asked.has(k) && asked.add(k);
    });
    if (fresh.length) for (const pair of await lookup(fresh)) taken.add(pair);
  };
  const family = (r: NameRequest) => pairKey(r.folder, nameKey(candidateName(r.name, r.isFile, 1)));

  await ask(requests.map((r) => ({ folder: r.folder, key: nameKey(r.name) })));
  // Per family: candidates n in [1, known) have been looked up.
  const known = new Map<string, number>();
  for (;;) {
    const used = new Set<string>();
    const next = new Map<string, number>();
    const short = new Map<string, { rep: NameRequest; count: number }>();
    const names = requests.map((r) => {
      const own = pairKey(r.folder, nameKey(r.name));
      if (!taken.has(own) && !used.has(own)) {
        used.add(own);
        return r.name;
      }
      const fam = family(r);
      const limit = known.get(fam) ?? 1;
      for (let n = next.get(fam) ?? 1; n < limit; n += 1) {
        const candidate = candidateName(r.name, r.isFile, n);
        const k = pairKey(r.folder, nameKey(candidate));
        if (taken.has(k) || used.has(k)) continue;
        used.add(k);
        next.set(fam, n + 1);
        return candidate;
      }
      next.set(fam, limit);
      short.set(fam, { rep: r, count: (short.get(fam)?.count ?? 0) + 1 });
      return '';
    });
    if (short.size === 0) return names;
    // Widen each short family's window by what it lacked plus some slack, or double it.
    const pairs: { folder: string; key: string }[] = [];
    for (const [fam, { rep, count }] of short) {
      const from = known.get(fam) ?? 1;
      const to = Math.max(from * 2, from + count + 32);
      for (let n = from; n < to; n += 1) pairs.push({ folder: rep.folder, key: nameKey(candidateName(rep.name, rep.isFile, n)) });
      known.set(fam, to);
    }
    await ask(pairs);
  }
}
