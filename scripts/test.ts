// `npm test`: every check in order (lint, types, build, unit, integration on SQLite, integration
// on PostgreSQL, browser tests), then how long each phase took, how many tests each ran and the
// slowest test files. Stops at the first phase that fails. `--from PHASE` starts there (a build
// already made); `--only PHASE[,PHASE]` runs just those; `--with-executable` (.ci/run) adds the
// one-file build from this dist/ and its smoke test.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
// Not under test-results/: Playwright empties that folder when it starts.
const REPORTS = path.join(ROOT, 'test-reports');

interface Phase {
  name: string;
  command: string[];
  /** A JSON report the phase writes, read for its counts and file times. */
  report?: { kind: 'vitest' | 'playwright'; file: string };
  env?: Record<string, string>;
}

const vitest = (project: string): Phase => ({
  name: project === 'unit' ? 'unit' : `integration (${project})`,
  command: ['npx', 'vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(REPORTS, `vitest-${project}.json`)}`],
  report: { kind: 'vitest', file: path.join(REPORTS, `vitest-${project}.json`) },
});

const PHASES: Phase[] = [
  { name: 'lint', command: ['npx', 'biome', 'lint', '--error-on-warnings'] },
  { name: 'types', command: ['sh', '-c', 'npx astro sync >/dev/null && npx tsc --noEmit -p tsconfig.json'] },
  { name: 'build', command: ['npx', 'astro', 'build'] },
  vitest('unit'),
  vitest('sqlite'),
  vitest('postgres'),
  {
    name: 'browser',
    command: ['npx', 'playwright', 'test', `--reporter=${process.env.CI ? 'list' : 'line'},json`],
    report: { kind: 'playwright', file: path.join(REPORTS, 'playwright.json') },
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(REPORTS, 'playwright.json') },
  },
];

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}
interface Outcome {
  phase: Phase;
  seconds: number;
  ok: boolean;
  counts?: Counts;
}
interface FileTime {
  label: string;
  seconds: number;
}

const EXECUTABLE: Phase[] = [
  // The release command as the README gives it (npm run package): its own build, then both processors' executables.
  { name: 'executable', command: ['node', 'scripts/package.ts'] },
  { name: 'smoke', command: ['bash', 'tests/package/smoke.sh'] },
];

function selected(argv: string[]): Phase[] {
  return [...chosen(argv), ...(argv.includes('--with-executable') ? EXECUTABLE : [])];
}

function chosen(argv: string[]): Phase[] {
  const from = argv.indexOf('--from');
  const only = argv.indexOf('--only');
  const matches = (p: Phase, name: string) => p.name === name || p.name.includes(`(${name})`);
  const check = (name: string | undefined) => {
    if (!name || !PHASES.some((p) => matches(p, name))) {
      throw new Error(`unknown phase ${name}: one of lint, types, build, unit, sqlite, postgres, browser`);
    }
    return name;
  };
  if (only >= 0) {
    const wanted = (argv[only + 1] ?? '').split(',').map(check);
    return PHASES.filter((p) => wanted.some((name) => matches(p, name)));
  }
  if (from >= 0) {
    const name = check(argv[from + 1]);
    return PHASES.slice(PHASES.findIndex((p) => matches(p, name)));
  }
  return PHASES;
}

function run(phase: Phase): Promise<boolean> {
  return new Promise((resolve) => {
    const [command, ...args] = phase.command as [string, ...string[]];
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...phase.env } });
    child.on('exit', (code, signal) => resolve(code === 0 && signal === null));
  });
}

function readReport(phase: Phase): { counts: Counts; files: FileTime[] } | undefined {
  if (!phase.report || !existsSync(phase.report.file)) return undefined;
  const json = JSON.parse(readFileSync(phase.report.file, 'utf8'));
  const rel = (file: string) => path.relative(ROOT, file);
  if (phase.report.kind === 'vitest') {
    const files: FileTime[] = json.testResults.map((r: { name: string; startTime: number; endTime: number }) => ({
      label: `${rel(r.name)} [${phase.name}]`,
      seconds: (r.endTime - r.startTime) / 1000,
    }));
    return { counts: { passed: json.numPassedTests, failed: json.numFailedTests, skipped: json.numPendingTests + json.numTodoTests }, files };
  }
  // Playwright: suites per file, each spec's tests' results' durations summed per file.
  const perFile = new Map<string, number>();
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  const walk = (suite: { file?: string; specs?: { file: string; tests: { status: string; results: { duration: number }[] }[] }[]; suites?: unknown[] }) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        const ms = t.results.reduce((sum, r) => sum + r.duration, 0);
        perFile.set(spec.file, (perFile.get(spec.file) ?? 0) + ms);
        if (t.status === 'skipped') counts.skipped += 1;
        else if (t.status === 'expected' || t.status === 'flaky') counts.passed += 1;
        else counts.failed += 1;
      }
    }
    for (const child of (suite.suites ?? []) as (typeof suite)[]) walk(child);
  };
  for (const suite of json.suites) walk(suite);
  const files = [...perFile].map(([file, ms]) => ({ label: `tests/e2e/${file} [browser]`, seconds: ms / 1000 }));
  return { counts, files };
}

const minutes = (seconds: number) => `${Math.floor(seconds / 60)}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;

async function main(): Promise<number> {
  const phases = selected(process.argv.slice(2));
  rmSync(REPORTS, { recursive: true, force: true });
  mkdirSync(REPORTS, { recursive: true });
  const outcomes: Outcome[] = [];
  const files: FileTime[] = [];
  for (const phase of phases) {
    console.log(`\n=== ${phase.name}: ${phase.command.join(' ')}`);
    const started = performance.now();
    const ok = await run(phase);
    const report = readReport(phase);
    outcomes.push({ phase, seconds: (performance.now() - started) / 1000, ok, counts: report?.counts });
    if (report) files.push(...report.files);
    if (!ok) break;
  }
  console.log('\n=== phases');
  // .ci/run's own first phase, timed before node was there to time it.
  const provisioned = Number(process.env.PROVISION_SECONDS ?? 0);
  if (process.env.PROVISION_SECONDS) console.log(`${'provision'.padEnd(24)} ${minutes(provisioned).padStart(7)}  ok`);
  for (const o of outcomes) {
    const counts = o.counts ? `  ${o.counts.passed} passed, ${o.counts.failed} failed, ${o.counts.skipped} skipped` : '';
    console.log(`${o.phase.name.padEnd(24)} ${minutes(o.seconds).padStart(7)}  ${o.ok ? 'ok' : 'FAILED'}${counts}`);
  }
  const total = outcomes.reduce((sum, o) => sum + o.seconds, 0) + provisioned;
  console.log(`${'total'.padEnd(24)} ${minutes(total).padStart(7)}`);
  console.log('\n=== slowest test files');
  for (const f of files.sort((a, b) => b.seconds - a.seconds).slice(0, 15)) console.log(`${f.seconds.toFixed(1).padStart(7)} s  ${f.label}`);
  const sum = outcomes.reduce((acc, o) => ({ passed: acc.passed + (o.counts?.passed ?? 0), failed: acc.failed + (o.counts?.failed ?? 0), skipped: acc.skipped + (o.counts?.skipped ?? 0) }), {
    passed: 0,
    failed: 0,
    skipped: 0,
  });
  const ok = outcomes.length === phases.length && outcomes.every((o) => o.ok);
  if (!ok) console.log(`\nstopped: ${outcomes.at(-1)?.phase.name} failed`);
  console.log(`\ntests: ${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped`);
  return ok ? 0 : 1;
}

process.exitCode = await main();
