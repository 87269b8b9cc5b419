import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** External programs the previews use when present: ffmpeg (video posters), pdftoppm (PDF first pages). */
export type Tool = 'ffmpeg' | 'pdftoppm';

const found = new Map<Tool, string | null>();

/** The tool's path on PATH, or null when it is not installed (looked up once per process). */
export function findTool(tool: Tool): string | null {
  if (!found.has(tool)) {
    let hit: string | null = null;
    for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
      if (!dir) continue;
      const candidate = path.join(dir, tool);
      try {
        accessSync(candidate, constants.X_OK);
        hit = candidate;
        break;
      } catch {
        /* not here */
      }
    }
    found.set(tool, hit);
  }
  return found.get(tool) ?? null;
}

/** Runs a tool with no shell, a time limit and a cap on what it may print. */
export function runTool(file: string, args: string[], timeoutMs = 60_000): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024, windowsHide: true }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`${path.basename(file)} failed: ${error.message} ${String(stderr).slice(0, 500)}`));
      else resolve();
    });
  });
}
