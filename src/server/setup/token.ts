import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The one-time setup token: until installation is done, the wizard and its API need it, so a
 * stranger who finds a fresh instance first cannot install it. It lives in DATA_DIR/setup/token
 * (readable by the server's user only), survives restarts, is printed in the log at every start,
 * and is deleted when installation finishes.
 */
export const SETUP_TOKEN_COOKIE = 'setup_token';
export const SETUP_TOKEN_HEADER = 'x-setup-token';

export const setupDir = (dataDir: string) => path.join(dataDir, 'setup');
const tokenFile = (dataDir: string) => path.join(setupDir(dataDir), 'token');

export async function ensureSetupToken(dataDir: string): Promise<string> {
  try {
    const existing = (await readFile(tokenFile(dataDir), 'utf8')).trim();
    if (/^[A-Za-z0-9_-]{20,}$/.test(existing)) return existing;
  } catch {
    /* none yet */
  }
  const token = randomBytes(18).toString('base64url');
  await mkdir(setupDir(dataDir), { recursive: true, mode: 0o700 });
  await writeFile(tokenFile(dataDir), token + '\n', { mode: 0o600 });
  return token;
}

export async function isValidSetupToken(dataDir: string, candidate: string | null | undefined): Promise<boolean> {
  if (!candidate || candidate.length > 200) return false;
  let token: string;
  try {
    token = (await readFile(tokenFile(dataDir), 'utf8')).trim();
  } catch {
    return false;
  }
  if (!token) return false;
  const digest = (v: string) => createHash('sha256').update(v).digest();
  return timingSafeEqual(digest(token), digest(candidate));
}

/** Removes the token and the wizard's saved progress: they must not outlive the installation. */
export async function removeSetupFiles(dataDir: string): Promise<void> {
  await rm(setupDir(dataDir), { recursive: true, force: true });
}
