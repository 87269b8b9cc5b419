import { ShieldCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Spinner } from '../../../components/Spinner.tsx';
import { useT } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';
import { loadUser } from '../../../stores/user.ts';
import { getStatus, newRecoveryCodes, type Setup, startSetup, turnOff, type TwoFactorStatus } from './client.ts';
import { ProofForm } from './ProofForm.tsx';
import { RecoveryCodesPanel } from './RecoveryCodesPanel.tsx';
import { SetupPanel } from './SetupPanel.tsx';

type View = { kind: 'idle' } | { kind: 'setup'; setup: Setup } | { kind: 'codes'; codes: string[] } | { kind: 'regenerate' } | { kind: 'disable' };

/** Two-factor authentication on the password settings page: off → setup → on (recovery codes shown once). */
export function TwoFactorCard() {
  const t = useT();
  const [status, setStatus] = useState<TwoFactorStatus | null>(null);
  const [view, setView] = useState<View>({ kind: 'idle' });
  const [busy, setBusy] = useState(false);

  const refresh = () =>
    getStatus().then(setStatus, (error: unknown) => toast('danger', error instanceof Error ? error.message : String(error)));
  useEffect(() => {
    void refresh();
  }, []);

  const fail = (error: unknown) => toast('danger', error instanceof Error ? error.message : String(error));
  const begin = async () => {
    setBusy(true);
    try {
      setView({ kind: 'setup', setup: await startSetup() });
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };
  const cancelSetup = () => {
    setView({ kind: 'idle' });
    // The pending key is dropped so nothing half set up stays behind.
    void turnOff({}).catch(() => undefined);
  };
  const changed = async () => {
    await refresh();
    void loadUser().catch(() => undefined);
  };

  const on = status?.enabled ?? false;
  return (
    <section className="card mt-6 max-w-lg p-6" aria-labelledby="two-factor-title" data-testid="two-factor-card">
      <div className="mb-1 flex items-center gap-2">
        <ShieldCheck className="size-5 text-muted" aria-hidden />
        <h2 id="two-factor-title" className="text-lg font-bold">
          {t('two_factor.card_title')}
        </h2>
        {status && (
          <span className={`ml-auto rounded-full px-2.5 py-0.5 text-xs font-semibold ${on ? 'bg-success/15 text-success-text' : 'bg-surface-2 text-muted'}`}>
            {on ? t('two_factor.status_on') : t('two_factor.status_off')}
          </span>
        )}
      </div>
      {status === null ? (
        <div className="flex justify-center py-6">
          <Spinner label={t('app.loading')} />
        </div>
      ) : view.kind === 'setup' ? (
        <div className="mt-4">
          <SetupPanel
            setup={view.setup}
            onCancel={cancelSetup}
            onConfirmed={(codes) => {
              setView({ kind: 'codes', codes });
              toast('success', t('two_factor.turned_on'));
              void changed();
            }}
          />
        </div>
      ) : view.kind === 'codes' ? (
        <div className="mt-4">
          <RecoveryCodesPanel codes={view.codes} onDone={() => setView({ kind: 'idle' })} />
        </div>
      ) : !on ? (
        <>
          <p className="mb-5 text-sm text-muted">{t('two_factor.card_text')}</p>
          <button type="button" className="btn-primary" disabled={busy} onClick={() => void begin()}>
            {t('two_factor.enable')}
          </button>
        </>
      ) : (
        <>
          <p className="text-sm text-muted">{t('two_factor.on_text')}</p>
          <p className="mt-2 text-sm" data-testid="recovery-codes-left">
            {t('two_factor.codes_left', { count: status.recovery_codes_left })}
          </p>
          {status.recovery_codes_low && (
            <p className="notice-warning mt-3" role="status">
              {t('two_factor.codes_low')}
            </p>
          )}
          {view.kind === 'idle' && (
            <div className="mt-5 flex flex-wrap gap-2">
              <button type="button" className="btn-secondary" onClick={() => setView({ kind: 'regenerate' })}>
                {t('two_factor.regenerate')}
              </button>
              <button type="button" className="btn-secondary text-danger-text" onClick={() => setView({ kind: 'disable' })}>
                {t('two_factor.disable')}
              </button>
            </div>
          )}
          {view.kind === 'regenerate' && (
            <ProofForm
              kind={status.disable_with}
              text={`${t('two_factor.regenerate_text')} ${status.disable_with === 'password' ? t('two_factor.confirm_with_password') : t('two_factor.confirm_with_code')}.`}
              submitLabel={t('two_factor.regenerate')}
              onCancel={() => setView({ kind: 'idle' })}
              run={async (proof) => {
                setView({ kind: 'codes', codes: await newRecoveryCodes(proof) });
                await refresh();
              }}
            />
          )}
          {view.kind === 'disable' && (
            <ProofForm
              kind={status.disable_with}
              danger
              text={`${t('two_factor.disable_text')} ${status.disable_with === 'password' ? t('two_factor.confirm_with_password') : t('two_factor.confirm_with_code')}.`}
              submitLabel={t('two_factor.disable')}
              onCancel={() => setView({ kind: 'idle' })}
              run={async (proof) => {
                await turnOff(proof);
                setView({ kind: 'idle' });
                toast('success', t('two_factor.turned_off'));
                await changed();
              }}
            />
          )}
        </>
      )}
    </section>
  );
}
