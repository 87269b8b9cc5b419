import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every repository path the documentation names exists: README.md, CHANGELOG.md and every .md
 * under docs/. A path is named by
 * - an inline code span that is one token starting with a top-level folder (src/, db/, …) or equal
 *   to a top-level file (package.json, …), resolved from the repository root;
 * - a relative link target (not http:, mailto: or an anchor alone), resolved from the file's folder.
 * A `:line` suffix and a `#anchor` are stripped. Globs (`*`) and placeholders (`<…>`, `{…}`) are
 * skipped, and so are paths under folders .gitignore lists (generated output such as
 * tests/e2e/screenshots/), which a fresh clone does not have.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['src/', 'db/', 'migrations/', 'tests/', 'scripts/', 'docs/', 'public/', 'messages/', 'packaging/', 'integrations/', '.ci/'];
const TOP_FILES = ['package.json', 'package-lock.json', 'astro.config.mjs', 'vitest.config.ts', 'playwright.config.ts', 'tsconfig.json', 'biome.jsonc', 'README.md', 'CHANGELOG.md'];

function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return markdownFiles(rel);
    return entry.name.endsWith('.md') ? [rel] : [];
  });
}

const ignoredFolders = readFileSync(path.join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line.endsWith('/') && !line.startsWith('#') && !line.includes('*'))
  .map((line) => line.replace(/^\//, ''));

const skipped = (ref: string) => ref.includes('*') || ref.includes('<') || ref.includes('{') || ignoredFolders.some((folder) => ref.startsWith(folder));
const stripSuffix = (ref: string) => ref.replace(/#.*$/, '').replace(/:\d+(-\d+)?$/, '');

/** Markdown with fenced and indented code blocks removed (their text is commands and sample output, not references). */
function prose(text: string): string {
  const kept: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced || /^( {4}|\t)/.test(line)) continue;
    kept.push(line);
  }
  return kept.join('\n');
}

interface Reference {
  file: string;
  ref: string;
  resolved: string;
}

function referencesIn(file: string): Reference[] {
  const text = prose(readFileSync(path.join(ROOT, file), 'utf8'));
  const found: Reference[] = [];
  for (const match of text.matchAll(/(?<!`)`([^`\n]+)`(?!`)/g)) {
    const span = match[1]!.trim();
    if (/\s/.test(span)) continue;
    const ref = stripSuffix(span);
    const looksLikePath = FOLDERS.some((folder) => ref.startsWith(folder)) || TOP_FILES.includes(ref);
    if (!looksLikePath || skipped(ref)) continue;
    found.push({ file, ref: span, resolved: ref });
  }
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1]!;
    if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
    const ref = stripSuffix(target);
    if (skipped(ref)) continue;
    found.push({ file, ref: target, resolved: path.relative(ROOT, path.resolve(ROOT, path.dirname(file), ref)) });
  }
  return found;
}

const files = ['README.md', 'CHANGELOG.md', ...markdownFiles('docs')];
const references = files.flatMap(referencesIn);

describe('documentation paths', () => {
  it('reads the README, the changelog and the docs', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(references.length).toBeGreaterThan(100);
  });

  it('names only paths that exist in the repository', () => {
    const missing = references.filter((r) => !existsSync(path.join(ROOT, r.resolved))).map((r) => `${r.file}: ${r.ref} (${r.resolved})`);
    expect(missing, `missing paths:\n${missing.join('\n')}`).toEqual([]);
  });
});
