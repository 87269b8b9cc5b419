import { describe, expect, it } from 'vitest';
import { ChangePasswordInput, RegisterInput } from '../../src/server/auth/schemas.ts';
import { MIN_SCORE, passwordScore, weakPasswordMessage } from '../../src/server/auth/strength.ts';
import { AdminSetupInput } from '../../src/server/setup/schemas.ts';

describe('password strength', () => {
  it('refuses the common passwords a length rule lets through', () => {
    for (const weak of ['password123', 'password1234', 'qwertyuiop1', 'iloveyou2026', '11111111']) expect(passwordScore(weak), weak).toBeLessThan(MIN_SCORE.user);
    for (const fine of ['correct horse battery', 'a strong passphrase', 'Tr0ub4dor&3x']) expect(passwordScore(fine), fine).toBeGreaterThanOrEqual(MIN_SCORE.admin);
  });

  it('counts the person’s own name and address as easy to guess', () => {
    expect(passwordScore('lovelace1815', ['Ada Lovelace', 'ada@example.test'])).toBeLessThan(passwordScore('lovelace1815'));
  });

  it('is enforced where a password is set: sign-up, reset, change and the first admin', () => {
    const register = (password: string) => RegisterInput.safeParse({ name: 'Ada', email: 'ada@example.test', password, password_confirmation: password });
    expect(register('password1234').error?.issues[0]).toMatchObject({ path: ['password'], message: weakPasswordMessage('password1234', [], 'user') });
    expect(register('analytical engine').success).toBe(true);
    const change = (password: string) => ChangePasswordInput.safeParse({ current_password: 'old one', password, password_confirmation: password });
    expect(change('password1234').success).toBe(false);
    const admin = (password: string) => AdminSetupInput.safeParse({ name: 'Ada', email: 'ada@example.test', password, password_confirmation: password });
    expect(admin('password1234').success).toBe(false);
    expect(admin('correct horse battery').success).toBe(true);
  });
});
