import { randomBytes } from 'node:crypto';
import { mkdir, rm, statfs, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { findTool } from '../previews/tools.ts';

/** One line of the status check: `required` failures block installation, optional ones only warn. */
export interface Check {
  id: string;
  label: string;
  ok: boolean;
  required: boolean;
  detail: string;
  /** What to do when it fails. */
  fix: string;
}

const MIN_NODE = [22, 12] as const;
const MIN_FREE_BYTES = 1024 ** 3;

export async function runChecks(ctx: AppContext): Promise<Check[]> {
  return [nodeCheck(), await dataDirCheck(ctx), await databaseCheck(ctx), await diskCheck(ctx), await sharpCheck(), toolCheck('ffmpeg', 'video thumbnails'), toolCheck('pdftoppm', 'PDF thumbnails')];
}

export const requiredChecksPass = (checks: Check[]) => checks.every((c) => c.ok || !c.required);

function nodeCheck(): Check {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return { id: 'node', label: 'Node.js version', ok, required: true, detail: `Node.js ${process.versions.node}`, fix: `Install Node.js ${MIN_NODE.join('.')} or newer (24 LTS recommended).` };
}

async function dataDirCheck(ctx: AppContext): Promise<Check> {
  const dir = ctx.config.dataDir;
  const probe = path.join(dir, `.write-test-${randomBytes(4).toString('hex')}`);
  let ok = true;
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, 'ok');
    await rm(probe, { force: true });
  } catch {
    ok = false;
  }
  return { id: 'data_dir', label: 'Data directory writable', ok, required: true, detail: dir, fix: `Give the server's user write access to ${dir} (or set DATA_DIR).` };
}

async function databaseCheck(ctx: AppContext): Promise<Check> {
  let ok = true;
  try {
    await sql`select 1`.execute(ctx.db);
  } catch {
    ok = false;
  }
  const detail = ctx.config.database.dialect === 'sqlite' ? `SQLite (${ctx.config.database.file})` : 'PostgreSQL';
  return { id: 'database', label: 'Database reachable', ok, required: true, detail, fix: 'Check DATABASE_URL and that the database server is running.' };
}

async function diskCheck(ctx: AppContext): Promise<Check> {
  let free = 0;
  try {
    const s = await statfs(ctx.config.dataDir);
    free = s.bavail * s.bsize;
  } catch {
    free = 0;
  }
  const gib = (free / 1024 ** 3).toFixed(1);
  return { id: 'disk', label: 'Free disk space', ok: free >= MIN_FREE_BYTES, required: false, detail: `${gib} GiB free`, fix: 'Free some space or move DATA_DIR to a bigger disk: uploads need room.' };
}

async function sharpCheck(): Promise<Check> {
  let ok = true;
  try {
    await import('sharp');
  } catch {
    ok = false;
  }
  return { id: 'sharp', label: 'Image thumbnails (sharp)', ok, required: false, detail: ok ? 'found' : 'not found', fix: 'Run `npm install` on this machine so sharp gets its native binary.' };
}

function toolCheck(tool: 'ffmpeg' | 'pdftoppm', what: string): Check {
  const found = findTool(tool);
  const pkg = tool === 'ffmpeg' ? 'ffmpeg' : 'poppler-utils';
  return { id: tool, label: `${tool} (${what})`, ok: found !== null, required: false, detail: found ?? 'not found', fix: `Optional: install it (\`apt-get install ${pkg}\`) for ${what}.` };
}
