import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';

/**
 * How guessable a password is, by zxcvbn's estimate (0 = among the most common, 4 = very unlikely
 * to be guessed) with its common-password and name dictionaries. An account needs 2 (safe from
 * guessing online, which the sign-in throttles slow further); the instance's admin needs 3.
 */
export const MIN_SCORE = { user: 2, admin: 3 } as const;

let estimator: ZxcvbnFactory | null = null;

/** Built on first use: the dictionaries cost about 90 ms to index, paid once, not at every start. */
function zxcvbn(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs });
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
