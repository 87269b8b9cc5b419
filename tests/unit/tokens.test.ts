import { describe, expect, it } from 'vitest';
import { generateSecret, hashSecret } from '../../src/server/auth/tokens.ts';

describe('secrets and their stored hashes', () => {
  it('hashes a secret as SHA-256 of its UTF-8 bytes in lower-case hex, the form the stored rows hold', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashSecret('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    // Non-ASCII goes in as UTF-8: ü is the two bytes c3 bc.
    expect(hashSecret('ü')).toBe('607474ca475a9724d7360aba71a56d5df77e61350e3f724cfa1f46e857e2d85f');
  });

  it('makes base32 secrets of the asked entropy, never the same twice', () => {
    const a = generateSecret();
    expect(a).toMatch(/^[a-z2-7]{32}$/);
    expect(generateSecret(5)).toMatch(/^[a-z2-7]{8}$/);
    expect(generateSecret()).not.toBe(a);
  });
});
