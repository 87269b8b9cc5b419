import { Check, Copy } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useState, type FormEvent } from 'react';
import { FormField } from '../../../components/FormField.tsx';
import { ApiError } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';
import { confirmSetup, groupKey, type Setup } from './client.ts';

/** A pending key: the QR code, the key to type, and the first code that turns it on. */
export function SetupPanel({ setup, onConfirmed, onCancel }: { setup: Setup; onConfirmed: (codes: string[]) => void; onCancel: () => void }) {
  const t = useT();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      onConfirmed(await confirmSetup(String(new FormData(event.currentTarget).get('code') ?? '')));
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) setError(err.errors.code?.[0] ?? err.message);
      else toast('danger', err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <p className="text-sm">{t('two_factor.setup_scan')}</p>
      {/* Dark on white whatever the theme: cameras read that best. */}
      <div className="my-4 w-fit rounded-control border border-border bg-white p-3">
        <QRCodeSVG value={setup.uri} size={168} role="img" aria-label={t('two_factor.qr_label')} />
      </div>
      <p className="text-sm text-muted">{t('two_factor.setup_manual')}</p>
      <div className="mt-1.5 flex flex-wrap items-center gap-2">
        <code data-testid="totp-key" className="min-w-0 flex-1 rounded-control bg-surface-2 px-3 py-2 font-mono text-[13px] [word-spacing:-0.15em] break-words">
          {groupKey(setup.key)}
        </code>
        <button type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={() => void navigator.clipboard?.writeText(setup.key).then(() => setCopied(true))}>
          {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
          {copied ? t('two_factor.key_copied') : t('two_factor.copy_key')}
        </button>
      </div>
      <form className="mt-5" onSubmit={(e) => void submit(e)} noValidate>
        <FormField label={t('two_factor.setup_code_label')} name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={7} className="input max-w-[12rem] font-mono tracking-widest" error={error || undefined} />
        <div className="flex flex-wrap gap-2">
          <button type="submit" className="btn-primary" disabled={busy}>
            {t('two_factor.setup_confirm')}
          </button>
          <button type="button" className="btn-secondary" onClick={onCancel} disabled={busy}>
            {t('two_factor.cancel')}
          </button>
        </div>
      </form>
    </div>
  );
}
