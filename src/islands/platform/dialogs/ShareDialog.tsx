import { QRCodeSVG } from 'qrcode.react';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../stores/api.ts';
import { closeDialog } from '../../../stores/dialogs.ts';
import type { Item } from '../../../stores/files.ts';
import { useT } from '../../../stores/i18n.ts';
import { createShare, EXPIRATION_HOURS, revokeShares, shareOf, updateShare, type Share } from '../../../stores/sharing.ts';
import { toast } from '../../../stores/ui.ts';
import { DialogFrame } from './DialogFrame.tsx';
import { formatDateTime } from '../../../stores/dates.ts';

/** Create or manage an item's share link: permission, password, expiry, email, QR code, revoke. */
export function ShareDialog({ item }: { item: Item }) {
  const t = useT();
  const [share, setShare] = useState<Share | null>(shareOf(item));
  const [permission, setPermission] = useState<'visitor' | 'editor'>(share?.attributes.permission ?? 'visitor');
  const [expiration, setExpiration] = useState<string>(share?.attributes.expire_in ? String(share.attributes.expire_in) : '');
  const [password, setPassword] = useState('');
  const [removePassword, setRemovePassword] = useState(false);
  const [emails, setEmails] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const list = emails.split(/[\s,;]+/).filter(Boolean);
    try {
      const input = {
        permission,
        expiration: expiration ? Number(expiration) : null,
        ...(list.length ? { emails: list } : {}),
        ...(password ? { password } : removePassword ? { password: null } : {}),
      };
      const saved = share ? await updateShare(share.attributes.token, input) : await createShare(item, input);
      setShare(saved);
      setPassword('');
      setRemovePassword(false);
      setEmails('');
      toast('success', list.length ? t('sharing.sent') : t('sharing.saved'));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('popup_error.message'));
    } finally {
      setBusy(false);
    }
  };

  const revoke = async () => {
    if (!share) return;
    setBusy(true);
    try {
      await revokeShares([share.attributes.token]);
      toast('success', t('sharing.revoked'));
      closeDialog();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('popup_error.message'));
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!share) return;
    try {
      await navigator.clipboard.writeText(share.attributes.link);
      toast('success', t('sharing.copied'));
    } catch {
      /* the field is selectable by hand */
    }
  };

  return (
    <DialogFrame title={t('sharing.title', { name: item.attributes.name })} description={share ? t('sharing.shared_text') : t('sharing.new_text')}>
      {share && (
        <div className="mb-5 flex items-start gap-4">
          <div className="shrink-0 rounded-control bg-white p-2" data-testid="share-qr">
            <QRCodeSVG value={share.attributes.link} size={96} aria-label={t('sharing.qr')} />
          </div>
          <div className="min-w-0 flex-1">
            <label className="text-sm font-semibold" htmlFor="share-link">
              {t('sharing.link')}
            </label>
            <div className="mt-1.5 flex gap-2">
              <input id="share-link" className="input min-w-0 flex-1" readOnly value={share.attributes.link} onFocus={(e) => e.currentTarget.select()} />
              <button type="button" className="btn-secondary" onClick={() => void copy()}>
                {t('sharing.copy')}
              </button>
            </div>
            <p className="mt-1.5 text-xs text-muted">
              {share.attributes.protected ? t('sharing.protected') : t('sharing.open')}
              {share.attributes.expires_at ? ` · ${t('sharing.expires', { date: formatDateTime(share.attributes.expires_at) })}` : ''}
            </p>
          </div>
        </div>
      )}
      <form onSubmit={(e) => void submit(e)} className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <label className="block text-sm font-semibold">
            {t('sharing.permission')}
            <select className="input mt-1.5 w-full" value={permission} onChange={(e) => setPermission(e.target.value as 'visitor' | 'editor')}>
              <option value="visitor">{t('sharing.visitor')}</option>
              {item.type === 'folder' && <option value="editor">{t('sharing.editor')}</option>}
            </select>
          </label>
          <label className="block text-sm font-semibold">
            {t('sharing.expiration')}
            <select className="input mt-1.5 w-full" value={expiration} onChange={(e) => setExpiration(e.target.value)}>
              <option value="">{t('sharing.never')}</option>
              {EXPIRATION_HOURS.map((h) => (
                <option key={h} value={h}>
                  {h % 24 === 0 ? t('sharing.days', { count: h / 24 }) : t('sharing.hours', { count: h })}
                </option>
              ))}
            </select>
          </label>
        </div>
        <label className="block text-sm font-semibold">
          {share?.attributes.protected ? t('sharing.new_password') : t('sharing.password')}
          <input type="password" autoComplete="new-password" className="input mt-1.5 w-full" value={password} onChange={(e) => setPassword(e.target.value)} placeholder={t('sharing.password_hint')} />
        </label>
        {share?.attributes.protected && (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={removePassword} onChange={(e) => setRemovePassword(e.target.checked)} />
            {t('sharing.remove_password')}
          </label>
        )}
        <label className="block text-sm font-semibold">
          {t('sharing.emails')}
          <input type="text" inputMode="email" className="input mt-1.5 w-full" value={emails} onChange={(e) => setEmails(e.target.value)} placeholder="name@example.com, …" />
        </label>
        {error && (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        )}
        <div className="flex flex-wrap justify-between gap-2 pt-2">
          {share ? (
            <button type="button" className="btn-danger" disabled={busy} onClick={() => void revoke()}>
              {t('sharing.revoke')}
            </button>
          ) : (
            <span />
          )}
          <div className="flex gap-2">
            <button type="button" className="btn-secondary" onClick={closeDialog}>
              {t('actions.cancel')}
            </button>
            <button type="submit" className="btn-primary" disabled={busy}>
              {share ? t('sharing.save') : t('sharing.create')}
            </button>
          </div>
        </div>
      </form>
    </DialogFrame>
  );
}
