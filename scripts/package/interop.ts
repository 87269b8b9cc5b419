// An esbuild plugin for the one-file bundle: `await import('pkg')` of a CommonJS package.
// With code splitting esbuild puts the package in its own chunk that exports only `default`
// (module.exports), so `const { parse } = await import('dotenv')`, which Node answers with named
// exports too, finds nothing. Each such import goes through a small ES module instead that
// re-exports module.exports' keys by name (read here, at build time, as Node's loader would).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'esbuild';

const NAMESPACE = 'cjs-dynamic-import';
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const RESERVED = new Set('await break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof let new null return static super switch this throw true try typeof var void while with yield __esModule'.split(' '));

/** Whether esbuild's chosen file for a package is an ES module: .mjs, .js under "type": "module", or a "module" build with import/export statements. */
function isEsm(file: string): boolean {
  if (file.endsWith('.mjs')) return true;
  if (file.endsWith('.cjs')) return false;
  if (/^\s*(?:export\s*[{*\w]|import\s*[{*\w'"])/m.test(readFileSync(file, 'utf8'))) return true;
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { type?: string }).type === 'module';
    } catch {
      /* no package.json here: look further up */
    }
  }
  return false;
}

export function cjsDynamicImports(root: string, external: (specifier: string) => boolean): Plugin {
  const load = createRequire(path.join(root, 'package.json'));
  return {
    name: NAMESPACE,
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.path.startsWith('node:') || external(args.path)) return undefined;
        const resolved = await build.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir });
        if (resolved.errors.length || isEsm(resolved.path)) return undefined;
        return { path: args.path, namespace: NAMESPACE, pluginData: { resolveDir: args.resolveDir, file: resolved.path } };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const { resolveDir, file } = args.pluginData as { resolveDir: string; file: string };
        const names = Object.keys(load(file) as object).filter((k) => IDENTIFIER.test(k) && !RESERVED.has(k));
        const spec = JSON.stringify(args.path);
        const named = names.length ? `export const { ${names.join(', ')} } = ns;\n` : '';
        return { contents: `import * as ns from ${spec};\nexport default ns.default;\n${named}`, resolveDir };
      });
    },
  };
}
