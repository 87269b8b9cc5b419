import { useStore } from '@nanostores/react';
import { browserSupportsWebAuthn, startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { Fingerprint } from 'lucide-react';
import { useEffect, useState } from 'react';
import { api } from '../../stores/api.ts';
import { $config } from '../../stores/config.ts';
import { $translations, loadTranslations, useT } from '../../stores/i18n.ts';
import { hostCannotHavePasskeys, passkeyErrorMessage } from './passkey-errors.ts';

type Mode = 'sign-in' | 'second-step';

/** Where each mode asks for options and sends the answer (the second step's challenge travels in its cookie). */
const ENDPOINTS: Record<Mode, { options: string; verify: string }> = {
  'sign-in': { options: '/login/passkey/options', verify: '/login/passkey' },
  'second-step': { options: '/login/two-factor/passkey/options', verify: '/login/two-factor/passkey' },
};

/**
 * "Sign in with a passkey" under a sign-in form: alone on /sign-in (`sign-in`, a discoverable
 * passkey, no email typed), or as the second factor on /sign-in/two-factor (`second-step`). Loaded
 * client-only: without JavaScript no passkey can answer, and the forms above work as before.
 */
/** `divider`: false when buttons of other ways in (social sign-in) stand above it under their own "or". */
export default function PasskeySignIn({ mode, divider = true }: { mode: Mode; divider?: boolean }) {
  const t = useT();
  const translations = useStore($translations);
  const [supported, setSupported] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [offered, setOffered] = useState(mode === 'sign-in');

  useEffect(() => {
    if (!$translations.get()) void loadTranslations($config.get()?.locale ?? 'en');
    if (mode === 'sign-in') {
      setSupported(browserSupportsWebAuthn());
      return;
    }
    // The second step offers a passkey only to an account that has one (its challenge says so).
    let live = true;
    api
      .get<{ data: { factors: string[] } }>('/login/two-factor')
      .then((res) => live && setOffered(res.data.factors.includes('passkey')))
      .catch(() => live && setOffered(false))
      .finally(() => live && setSupported(browserSupportsWebAuthn()));
    return () => {
      live = false;
    };
  }, [mode]);

  const run = async () => {
    setBusy(true);
    setError('');
    try {
      const endpoints = ENDPOINTS[mode];
      const options = await api.post<{ data: PublicKeyCredentialRequestOptionsJSON }>(endpoints.options, {});
      const credential = await startAuthentication({ optionsJSON: options.data });
      const redirect = new URLSearchParams(location.search).get('redirect') ?? '';
      // "Keep me signed in" of the password form above counts for the passkey too.
      const remember = document.querySelector<HTMLInputElement>('form input[name="remember"]')?.checked ?? false;
      const body = mode === 'sign-in' ? { credential, redirect, remember } : { credential, redirect };
      const signedIn = await api.post<{ meta: { redirect: string } }>(endpoints.verify, body);
      location.assign(signedIn.meta.redirect);
    } catch (err) {
      setError(passkeyErrorMessage(err, t));
      setBusy(false);
    }
  };

  if (!translations || supported === null || !offered) return null;
  // Signing in has the password form; a browser without WebAuthn just does not see the button there.
  // At an IP address a passkey cannot work: the sign-in page offers none (the second step says why).
  if (hostCannotHavePasskeys(location.hostname)) return mode === 'second-step' ? <p className="mt-5 text-center text-sm text-muted">{t('passkeys.needs_host_name', { host: location.hostname })}</p> : null;
  if (!supported) return mode === 'second-step' ? <p className="mt-5 text-center text-sm text-muted">{t('passkeys.unsupported_sign_in')}</p> : null;
  return (
    <div className={divider ? 'mt-5' : 'mt-2.5'} data-testid="passkey-sign-in">
      {divider && (
        <div className="mb-5 flex items-center gap-3 text-sm text-muted" aria-hidden>
          <span className="h-px flex-1 bg-border" />
          {t('passkeys.or')}
          <span className="h-px flex-1 bg-border" />
        </div>
      )}
      <button type="button" className="btn-secondary w-full" onClick={() => void run()} disabled={busy} aria-busy={busy}>
        <Fingerprint className="size-4" aria-hidden />
        {busy ? t('passkeys.signing_in') : mode === 'sign-in' ? t('passkeys.sign_in') : t('passkeys.use_passkey')}
      </button>
      {error && (
        <p className="notice-danger mt-4" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
