import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/env.ts';
import type { AppContext } from '../../src/server/context.ts';
import { decryptSecret, encryptSecret, instanceKeyFile, isEncrypted } from '../../src/server/settings/secrets.ts';

/** Encryption of secret settings (AES-256-GCM under a key derived from the instance secret). */
const dirs: string[] = [];
async function contextWith(env: Record<string, string> = {}): Promise<AppContext> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cd-secrets-'));
  dirs.push(dataDir);
  return { config: await loadConfig({ DATA_DIR: dataDir, ...env }, dataDir) } as AppContext;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('secret settings', () => {
  it('round-trips, never shows the plain text and uses a fresh IV each time', async () => {
    const ctx = await contextWith();
    const a = await encryptSecret(ctx, 'recaptcha_secret', 'the plain secret');
    const b = await encryptSecret(ctx, 'recaptcha_secret', 'the plain secret');
    expect(isEncrypted(a)).toBe(true);
    expect(a).not.toContain('plain');
    expect(a).not.toBe(b);
    expect(await decryptSecret(ctx, 'recaptcha_secret', a)).toBe('the plain secret');
    // The key file was made on first use.
    expect((await readFile(instanceKeyFile(ctx.config.dataDir), 'utf8')).trim()).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });

  it('does not decrypt under another setting’s name, another instance secret or after tampering', async () => {
    const ctx = await contextWith();
    const stored = await encryptSecret(ctx, 'social_google_client_secret', 'google secret');
    expect(await decryptSecret(ctx, 'social_github_client_secret', stored)).toBeNull();
    expect(await decryptSecret(await contextWith(), 'social_google_client_secret', stored)).toBeNull();
    const flipped = stored.slice(0, -2) + (stored.at(-2) === 'A' ? 'B' : 'A') + stored.at(-1);
    expect(await decryptSecret(ctx, 'social_google_client_secret', flipped)).toBeNull();
    expect(await decryptSecret(ctx, 'social_google_client_secret', 'enc:v1:short')).toBeNull();
  });

  it('uses APP_KEY when set, whatever the data dir, and refuses a short one', async () => {
    const key = 'k'.repeat(40);
    const one = await contextWith({ APP_KEY: key });
    const two = await contextWith({ APP_KEY: key });
    expect(await decryptSecret(two, 'recaptcha_secret', await encryptSecret(one, 'recaptcha_secret', 'shared'))).toBe('shared');
    await expect(readFile(instanceKeyFile(one.config.dataDir))).rejects.toThrow();
    await expect(loadConfig({ APP_KEY: 'too short' }, '/srv')).rejects.toThrow(/APP_KEY/);
  });
});
