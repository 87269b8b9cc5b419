import { useEffect, useState } from 'react';
import { useT } from '../stores/i18n.ts';

type Estimate = (password: string, related: string[]) => number;
let estimator: Promise<Estimate> | null = null;

/** The same estimator as the server's check (src/server/auth/strength.ts), loaded only when a password form opens. */
function loadEstimator(): Promise<Estimate> {
  estimator ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(([core, common]) => {
    const factory = new core.ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs });
    return (password, related) => factory.check(password, related).score;
  });
  return estimator;
}

const COLOURS = ['bg-danger', 'bg-danger', 'bg-warning', 'bg-success', 'bg-success'];

/**
 * A hint under a new password: four bars and a word, from zxcvbn's score. `minimum` is the score the
 * server asks for (2 for an account, 3 for the admin); below it the hint says the password will be refused.
 */
export function PasswordStrength({ password, related = [], minimum = 2 }: { password: string; related?: string[]; minimum?: number }) {
  const t = useT();
  const [score, setScore] = useState<number | null>(null);
  const key = related.join('\n');
  useEffect(() => {
    let current = true;
    if (!password) {
      setScore(null);
      return;
    }
    void loadEstimator().then((estimate) => {
      if (current) setScore(estimate(password.slice(0, 128), key ? key.split('\n') : []));
    });
    return () => {
      current = false;
    };
  }, [password, key]);
  if (score === null) return <div className="-mt-2 mb-4 h-5" aria-hidden />;
  const label = score < minimum ? t('password_strength.weak') : score >= 4 ? t('password_strength.strong') : t('password_strength.good');
  return (
    <div className="-mt-2 mb-4 flex h-5 items-center gap-3" data-testid="password-strength" data-score={score}>
      <div className="flex flex-1 gap-1" aria-hidden>
        {[1, 2, 3, 4].map((bar) => (
          <span key={bar} className={`h-1.5 flex-1 rounded-full ${score >= bar ? COLOURS[score] : 'bg-surface-2'}`} />
        ))}
      </div>
      <p className={`text-xs font-medium ${score < minimum ? 'text-danger' : 'text-muted'}`} role="status">
        {label}
      </p>
    </div>
  );
}
