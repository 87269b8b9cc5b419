import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { normaliseRecoveryCode, RECOVERY_CODE } from '../../src/server/auth/two-factor/recovery-codes.ts';
import { currentStep, matchingStep, newTotpKey, sealTotpKey, totpKeyOf, totpUri } from '../../src/server/auth/two-factor/totp.ts';
import { loadConfig } from '../../src/server/config/env.ts';
import type { AppContext } from '../../src/server/context.ts';

/** The TOTP arithmetic on a fixed clock: the window, its edges, and the key kept sealed. */
const KEY = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const code = (step: number) => generateHOTP(decodeBase32IgnorePadding(KEY), BigInt(step), 6);
// 10 s into a step: nothing here depends on the real clock.
const NOW = new Date(1_800_000_000_000 + 10_000);
const STEP = currentStep(NOW);

describe('matchingStep', () => {
  it('accepts the step before, the current one and the next, and says which', () => {
    expect(matchingStep(KEY, code(STEP), NOW)).toBe(STEP);
    expect(matchingStep(KEY, code(STEP - 1), NOW)).toBe(STEP - 1);
    expect(matchingStep(KEY, code(STEP + 1), NOW)).toBe(STEP + 1);
  });

  it('refuses two steps away either side, and anything not six digits', () => {
    expect(matchingStep(KEY, code(STEP + 2), NOW)).toBeNull();
    expect(matchingStep(KEY, code(STEP - 2), NOW)).toBeNull();
    expect(matchingStep(KEY, code(STEP).slice(0, 5), NOW)).toBeNull();
    expect(matchingStep(KEY, `${code(STEP)}0`, NOW)).toBeNull();
    expect(matchingStep(KEY, 'abcdef', NOW)).toBeNull();
  });

  it('moves with the clock: the last second of a step and the first of the next', () => {
    const start = STEP * 30_000;
    expect(matchingStep(KEY, code(STEP - 1), new Date(start + 29_999))).toBe(STEP - 1);
    expect(matchingStep(KEY, code(STEP - 1), new Date(start + 30_000))).toBeNull();
  });
});

describe('keys', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  const context = async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cd-totp-'));
    dirs.push(dataDir);
    return { config: await loadConfig({ DATA_DIR: dataDir }, dataDir), logger: { error: () => undefined } } as unknown as AppContext;
  };

  it('a new key is 160 bits of base32, and the URI names the app and the account', () => {
    const key = newTotpKey();
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(totpUri('Cloud Drive', 'ada@example.test', key));
    expect(uri.href).toMatch(/^otpauth:\/\/totp\//);
    expect(uri.searchParams.get('issuer')).toBe('Cloud Drive');
    expect(uri.searchParams.get('secret')).toBe(key);
    expect(uri.searchParams.get('period')).toBe('30');
    expect(uri.searchParams.get('digits')).toBe('6');
  });

  it('is sealed for one account: it opens for that account only', async () => {
    const ctx = await context();
    const sealed = await sealTotpKey(ctx, 'user-a', KEY);
    expect(sealed).not.toContain(KEY);
    expect(await totpKeyOf(ctx, { id: 'user-a', totp_secret: sealed })).toBe(KEY);
    expect(await totpKeyOf(ctx, { id: 'user-b', totp_secret: sealed })).toBeNull();
    expect(await totpKeyOf(ctx, { id: 'user-a', totp_secret: null })).toBeNull();
  });
});

describe('recovery codes', () => {
  it('are read without dashes, spaces or case', () => {
    expect(normaliseRecoveryCode(' ABCD-efgh 2345 ')).toBe('abcdefgh2345');
    expect(RECOVERY_CODE.test('abcdefgh2345')).toBe(true);
    expect(RECOVERY_CODE.test('abcdefgh2341')).toBe(false);
  });
});
