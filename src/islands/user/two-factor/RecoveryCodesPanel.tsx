import { Check, Copy, Download } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { config } from '../../../stores/config.ts';
import { useT } from '../../../stores/i18n.ts';
import { $user } from '../../../stores/user.ts';

/** Fresh recovery codes, shown once: copy them, download them, then say they are saved. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const text = codes.join('\n');
  const title = t('two_factor.codes_file', { app: config().app.name, email: $user.get()?.attributes.email ?? '' });
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${title}\n\n${text}\n`], { type: 'text/plain' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: 'recovery-codes.txt' });
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <div>
      <h3 ref={heading} tabIndex={-1} className="font-semibold outline-none">
        {t('two_factor.codes_title')}
      </h3>
      <p className="mt-1 text-sm text-muted">{t('two_factor.codes_text')}</p>
      <ul data-testid="recovery-codes" className="my-4 grid grid-cols-2 gap-x-4 gap-y-1.5 rounded-control bg-surface-2 px-4 py-3 font-mono text-sm sm:grid-cols-2">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn-secondary" onClick={() => void navigator.clipboard?.writeText(text).then(() => setCopied(true))}>
          {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
          {copied ? t('two_factor.codes_copied') : t('two_factor.copy_codes')}
        </button>
        <button type="button" className="btn-secondary" onClick={download}>
          <Download className="size-4" aria-hidden />
          {t('two_factor.download_codes')}
        </button>
        <button type="button" className="btn-primary sm:ml-auto" onClick={onDone}>
          {t('two_factor.codes_saved')}
        </button>
      </div>
    </div>
  );
}
