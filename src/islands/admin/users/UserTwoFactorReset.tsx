import { ShieldOff } from 'lucide-react';
import { useState } from 'react';
import { useT } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';
import { resetTwoFactor, type AdminUserDetail } from './client.ts';

/** On the password tab while the user has two-factor authentication: the admin's reset, asked twice. */
export function UserTwoFactorReset({ user }: { user: AdminUserDetail }) {
  const t = useT();
  const email = user.data.attributes.email;
  const [step, setStep] = useState<'idle' | 'confirm' | 'busy' | 'done'>('idle');
  if (step === 'done') return null;

  const reset = async () => {
    setStep('busy');
    try {
      await resetTwoFactor(user.data.id);
      toast('success', t('two_factor.admin_reset_done', { email }));
      setStep('done');
    } catch (error) {
      toast('danger', error instanceof Error ? error.message : String(error));
      setStep('idle');
    }
  };

  return (
    <section className="card p-6 lg:col-span-2" data-testid="two-factor-reset">
      <h2 className="mb-1 flex items-center gap-2 text-lg font-bold">
        <ShieldOff className="size-5 text-muted" aria-hidden />
        {t('two_factor.admin_title')}
      </h2>
      <p className="mb-5 text-sm text-muted">{t('two_factor.admin_text')}</p>
      {step === 'idle' ? (
        <button type="button" className="btn-secondary text-danger-text" onClick={() => setStep('confirm')}>
          {t('two_factor.admin_reset')}
        </button>
      ) : (
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label={t('two_factor.admin_reset')}>
          <span className="text-sm font-semibold [overflow-wrap:anywhere]">{t('two_factor.admin_reset_confirm', { email })}</span>
          <button type="button" className="btn-secondary border-danger/60 text-danger-text" disabled={step === 'busy'} onClick={() => void reset()} autoFocus>
            {t('two_factor.admin_reset_yes')}
          </button>
          <button type="button" className="btn-secondary" disabled={step === 'busy'} onClick={() => setStep('idle')}>
            {t('two_factor.cancel')}
          </button>
        </div>
      )}
    </section>
  );
}
