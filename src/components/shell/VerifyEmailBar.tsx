import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { api } from '../../stores/api.ts';
import { $config } from '../../stores/config.ts';
import { useT } from '../../stores/i18n.ts';
import { toast } from '../../stores/ui.ts';
import { $user } from '../../stores/user.ts';

/**
 * While `email_verification_required` is on and the address is unverified, the server refuses
 * uploads, shares and upload requests (code `email_verification_required`): this bar says why and
 * sends the link again.
 */
export function VerifyEmailBar() {
  const user = useStore($user);
  const config = useStore($config);
  const t = useT();
  const [sending, setSending] = useState(false);
  if (!user || !config?.emailVerificationRequired || user.attributes.email_verified_at) return null;
  const resend = async () => {
    setSending(true);
    try {
      await api.post('/api/user/verification-email', {});
      toast('success', t('verify_email.sent', { email: user.attributes.email }));
    } catch (error) {
      toast('danger', error instanceof Error ? error.message : String(error));
    } finally {
      setSending(false);
    }
  };
  return (
    <div role="status" data-testid="verify-email-bar" className="flex flex-wrap items-center justify-center gap-x-3 gap-y-1 bg-warning px-4 py-2.5 text-center text-sm font-medium text-black">
      <span>{t('verify_email.text', { email: user.attributes.email })}</span>
      <button type="button" className="font-bold underline underline-offset-2 disabled:opacity-60" disabled={sending} onClick={() => void resend()}>
        {t('verify_email.resend')}
      </button>
    </div>
  );
}
