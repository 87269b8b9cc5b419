// Chunk names for the one-file bundle that depend only on the code. esbuild's [hash] also hashes
// the input files' paths, and Astro's build names its chunks by a hash of code that holds absolute
// paths: the same app built in another folder got other chunk names. Here each chunk is renamed
// by a hash of its code with the chunk names it refers to left out, refined a few rounds by the
// names of the chunks it refers to (so two chunks whose code is alike still get apart).
import { createHash } from 'node:crypto';
import path from 'node:path';

export interface OutputText {
  path: string;
  text: string;
}

const ROUNDS = 4;

/** Renames the chunks (files directly in `chunkDir` named by esbuild's hash) in every output's path and text. */
export function renameChunks(files: OutputText[], chunkDir: string): OutputText[] {
  const chunkName = /^[A-Z2-7]{8}\.mjs$/;
  const chunks = new Set(files.filter((f) => path.dirname(f.path) === chunkDir && chunkName.test(path.basename(f.path))).map((f) => path.basename(f.path, '.mjs')));
  if (!chunks.size) return files;
  const reference = new RegExp(`\\b(${[...chunks].join('|')})\\.mjs\\b`, 'g');
  const parsed = files.map((f) => {
    const refs: string[] = [];
    const skeleton = f.text.replace(reference, (_, name: string) => {
      refs.push(name);
      return '@.mjs';
    });
    return { file: f, own: path.dirname(f.path) === chunkDir ? path.basename(f.path, '.mjs') : null, skeleton, refs };
  });
  const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);
  let names = new Map(parsed.filter((p) => p.own).map((p) => [p.own!, digest(p.skeleton)]));
  for (let round = 0; round < ROUNDS; round += 1) {
    names = new Map(parsed.filter((p) => p.own).map((p) => [p.own!, digest(`${names.get(p.own!)}\n${p.refs.map((r) => names.get(r)).join(',')}`)]));
  }
  // Chunks alike in their code and in what they import (two small re-export chunks, say) are told
  // apart by where they are imported: which file (a chunk by its name so far) and at which place.
  const importedAt = new Map<string, string[]>();
  for (const p of parsed) {
    const from = p.own ? names.get(p.own)! : path.basename(p.file.path);
    p.refs.forEach((ref, place) => {
      const list = importedAt.get(ref) ?? [];
      list.push(`${from}:${place}`);
      importedAt.set(ref, list);
    });
  }
  names = new Map([...names].map(([own, name]) => [own, digest(`${name}\n${(importedAt.get(own) ?? []).sort().join(',')}`)]));
  if (new Set(names.values()).size !== names.size) throw new Error('two bundle chunks got the same name (alike in code, imports and where they are imported): see scripts/package/chunk-names.ts');
  return parsed.map(({ file, own }) => ({
    path: own ? path.join(chunkDir, `${names.get(own)}.mjs`) : file.path,
    text: file.text.replace(reference, (_, name: string) => `${names.get(name)}.mjs`),
  }));
}
