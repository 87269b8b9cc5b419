import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setupDir } from './token.ts';

/** The wizard's steps, in order (SPEC §2 SetupWizard children). */
export const SETUP_STEPS = ['status-check', 'purchase-code', 'database', 'environment', 'app-setup', 'admin-setup'] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

/**
 * What the wizard has saved so far, so each step keeps its values when going back and after a reload.
 * Kept in the data dir, not the database: the database step may switch databases half way.
 */
export interface SetupProgress {
  completed: SetupStep[];
  values: Partial<Record<SetupStep, Record<string, unknown>>>;
}

const file = (dataDir: string) => path.join(setupDir(dataDir), 'progress.json');

export async function readProgress(dataDir: string): Promise<SetupProgress> {
  try {
    const parsed = JSON.parse(await readFile(file(dataDir), 'utf8')) as SetupProgress;
    return { completed: (parsed.completed ?? []).filter((s) => SETUP_STEPS.includes(s)), values: parsed.values ?? {} };
  } catch {
    return { completed: [], values: {} };
  }
}

export async function saveStep(dataDir: string, step: SetupStep, values: Record<string, unknown>): Promise<SetupProgress> {
  const progress = await readProgress(dataDir);
  progress.values[step] = values;
  if (!progress.completed.includes(step)) progress.completed.push(step);
  await mkdir(setupDir(dataDir), { recursive: true, mode: 0o700 });
  const tmp = `${file(dataDir)}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(progress), { mode: 0o600 });
  await rename(tmp, file(dataDir));
  return progress;
}

/** The first step not yet completed: a step may only be saved once every step before it is. */
export function nextStep(progress: SetupProgress): SetupStep {
  return SETUP_STEPS.find((s) => !progress.completed.includes(s)) ?? 'admin-setup';
}
