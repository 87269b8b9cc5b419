import { atom, type WritableAtom } from 'nanostores';

/** An atom remembered in this browser (localStorage), for view choices the spec keeps locally. */
export function persistentAtom<T>(key: string, fallback: T, valid: (value: unknown) => value is T): WritableAtom<T> {
  let initial = fallback;
  if (typeof localStorage !== 'undefined') {
    try {
      const raw = localStorage.getItem(key);
      const parsed: unknown = raw === null ? undefined : JSON.parse(raw);
      if (valid(parsed)) initial = parsed;
    } catch {
      /* a hand-edited or old value: keep the default */
    }
  }
  const store = atom<T>(initial);
  store.listen((value) => {
    try {
      localStorage.setItem(key, JSON.stringify(value));
    } catch {
      /* private mode or full storage: the choice lasts for this page only */
    }
  });
  return store;
}
