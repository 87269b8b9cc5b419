import { useStore } from '@nanostores/react';
import { Check, Copy, HardDrive } from 'lucide-react';
import { useId, useState } from 'react';
import { $config } from '../../stores/config.ts';
import { useT } from '../../stores/i18n.ts';
import { $user } from '../../stores/user.ts';

/** A value to copy: shown as code, with a Copy button that says when it copied. */
function CopyLine({ value, label, testId }: { value: string; label: string; testId: string }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <code data-testid={testId} className="min-w-0 flex-1 rounded-control bg-surface-2 px-3 py-2.5 font-mono text-sm break-all">
        {value}
      </code>
      <button type="button" className="btn-secondary" aria-label={copied ? t('webdav_settings.copied') : label} onClick={() => void navigator.clipboard?.writeText(value).then(() => setCopied(true))}>
        {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
        {copied ? t('webdav_settings.copied') : t('webdav_settings.copy')}
      </button>
    </div>
  );
}

/**
 * The WebDAV address (APP_URL/dav/) to copy, with short steps for Finder, Windows Explorer and
 * rclone; signing in takes the account's email and an app password made on this page.
 */
export function WebDavCard() {
  const t = useT();
  const config = useStore($config);
  const user = useStore($user);
  const headingId = useId();
  const address = `${config?.host ?? window.location.origin}/dav/`;
  const email = user?.attributes.email ?? 'you@example.com';
  const rclone = `rclone config create drive webdav url=${address} vendor=other user=${email} pass=$(rclone obscure '<app password>')`;
  const steps = [
    { title: t('webdav_settings.macos_title'), text: t('webdav_settings.macos_steps') },
    { title: t('webdav_settings.windows_title'), text: t('webdav_settings.windows_steps') },
  ];
  return (
    <section className="card flex flex-col gap-4 p-6" aria-labelledby={headingId} data-testid="webdav-card">
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-surface-2 text-muted">
          <HardDrive className="size-5" aria-hidden />
        </span>
        <div className="min-w-0">
          <h2 id={headingId} className="font-semibold">
            {t('webdav_settings.title')}
          </h2>
          <p className="text-sm text-muted">{t('webdav_settings.intro', { email })}</p>
        </div>
      </div>
      <CopyLine value={address} label={t('webdav_settings.copy_address')} testId="webdav-address" />
      <div className="grid gap-4 md:grid-cols-2">
        {steps.map((step) => (
          <div key={step.title}>
            <h3 className="text-sm font-semibold">{step.title}</h3>
            <p className="text-sm text-muted">{step.text}</p>
          </div>
        ))}
      </div>
      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">{t('webdav_settings.rclone_title')}</h3>
        <p className="text-sm text-muted">{t('webdav_settings.rclone_steps')}</p>
        <CopyLine value={rclone} label={t('webdav_settings.copy_rclone')} testId="webdav-rclone" />
      </div>
      <p className="text-sm text-muted">{t('webdav_settings.https_note')}</p>
    </section>
  );
}
