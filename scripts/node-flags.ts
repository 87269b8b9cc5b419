import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The V8 flags the server runs with, read from `npm start` in package.json, the one place they are
 * written: the test and benchmark servers (tests/support/server.ts) and the single executable
 * (scripts/package.ts) run the same process as `npm start`. README, Benchmarks, says why each is there.
 */
export function serverNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as { scripts: { start: string } };
  const [node, ...args] = pkg.scripts.start.trim().split(/\s+/);
  if (node !== 'node') throw new Error(`npm start is expected to run node, not ${node}`);
  return args.filter((arg) => arg.startsWith('--'));
}
