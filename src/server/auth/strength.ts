import { createRequire } from 'node:module';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

// Loaded on first use, not at start: the common-password dictionary unpacks into several MiB of
// strings that a server which sets no password has no use for. Both packages are CommonJS, so a
// synchronous require keeps the checks synchronous (they run inside the input schemas).
const load = createRequire(import.meta.url);

/**
 * How guessable a password is, by zxcvbn's estimate (0 = among the most common, 4 = very unlikely
 * to be guessed) with its common-password and name dictionaries. An account needs 2 (safe from
 * guessing online, which the sign-in throttles slow further); the instance's admin needs 3.
 */
export const MIN_SCORE = { user: 2, admin: 3 } as const;

let estimator: ZxcvbnFactory | null = null;

/** Built on first use: the dictionaries cost about 90 ms to load and index, paid once, not at every start. */
function zxcvbn(): ZxcvbnFactory {
  if (estimator) return estimator;
  const { ZxcvbnFactory: Factory } = load('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
  const common = load('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
  estimator = new Factory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs });
  return estimator;
}

/** The score of a password; `related` (name, email) counts as easy to guess, as it is for a person who knows you. */
export function passwordScore(password: string, related: string[] = []): number {
  const words = related.flatMap((r) => [r, ...r.split(/[\s@.+_-]+/)]).filter((w) => w.length >= 3);
  return zxcvbn().check(password, words).score;
}

/** A refusal message when the password is too easy to guess for that kind of account, else null. */
export function weakPasswordMessage(password: string, related: string[], kind: keyof typeof MIN_SCORE): string | null {
  if (passwordScore(password, related) >= MIN_SCORE[kind]) return null;
  return kind === 'admin'
    ? 'The admin password is too easy to guess: use a few unrelated words or a longer phrase.'
    : 'The password is too easy to guess: use a few unrelated words or a longer phrase.';
}
