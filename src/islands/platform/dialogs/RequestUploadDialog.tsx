import { QRCodeSVG } from 'qrcode.react';
import { useState, type FormEvent } from 'react';
import { api, ApiError } from '../../../stores/api.ts';
import { closeDialog } from '../../../stores/dialogs.ts';
import { refreshListing, loadTree, type Item } from '../../../stores/files.ts';
import { useT } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';
import { DialogFrame } from './DialogFrame.tsx';

const EXPIRATIONS = [24, 72, 168, 720];

/** Ask someone to upload into a folder (or a new one named for the request); shows the link made. */
export function RequestUploadDialog({ folder }: { folder: Item | null }) {
  const t = useT();
  const [name, setName] = useState('');
  const [notes, setNotes] = useState('');
  const [email, setEmail] = useState('');
  const [expiration, setExpiration] = useState('72');
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await api.post<{ data: { attributes: { link: string } } }>('/api/upload-request', { folder_id: folder?.id ?? null, name: name || null, notes: notes || null, email: email || null, expiration: Number(expiration) });
      setLink(res.data.attributes.link);
      void refreshListing();
      void loadTree();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('popup_error.message'));
    } finally {
      setBusy(false);
    }
  };

  if (link) {
    return (
      <DialogFrame title={t('requests.created_title')} description={t('requests.created_text')}>
        <div className="flex items-start gap-4">
          <div className="shrink-0 rounded-control bg-white p-2">
            <QRCodeSVG value={link} size={96} aria-label={t('sharing.qr')} />
          </div>
          <div className="min-w-0 flex-1">
            <label className="text-sm font-semibold" htmlFor="request-link">
              {t('sharing.link')}
            </label>
            <input id="request-link" className="input mt-1.5 w-full" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
            <button type="button" className="btn-secondary mt-2" onClick={() => void navigator.clipboard.writeText(link).then(() => toast('success', t('sharing.copied')), () => undefined)}>
              {t('sharing.copy')}
            </button>
          </div>
        </div>
        <div className="mt-6 flex justify-end">
          <button type="button" className="btn-primary" onClick={closeDialog}>
            {t('requests.close')}
          </button>
        </div>
      </DialogFrame>
    );
  }

  return (
    <DialogFrame title={t('requests.title')} description={folder ? t('requests.into', { name: folder.attributes.name }) : t('requests.into_new')}>
      <form onSubmit={(e) => void submit(e)} className="space-y-4">
        {!folder && (
          <label className="block text-sm font-semibold">
            {t('requests.name')}
            <input className="input mt-1.5 w-full" value={name} onChange={(e) => setName(e.target.value)} required />
          </label>
        )}
        <label className="block text-sm font-semibold">
          {t('requests.notes')}
          <textarea className="input mt-1.5 min-h-20 w-full" value={notes} onChange={(e) => setNotes(e.target.value)} maxLength={2000} />
        </label>
        <div className="grid gap-4 sm:grid-cols-2">
          <label className="block text-sm font-semibold">
            {t('requests.email')}
            <input type="email" className="input mt-1.5 w-full" value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <label className="block text-sm font-semibold">
            {t('sharing.expiration')}
            <select className="input mt-1.5 w-full" value={expiration} onChange={(e) => setExpiration(e.target.value)}>
              {EXPIRATIONS.map((h) => (
                <option key={h} value={h}>
                  {t('sharing.days', { count: h / 24 })}
                </option>
              ))}
            </select>
          </label>
        </div>
        {error && (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2 pt-2">
          <button type="button" className="btn-secondary" onClick={closeDialog}>
            {t('actions.cancel')}
          </button>
          <button type="submit" className="btn-primary" disabled={busy}>
            {t('requests.create')}
          </button>
        </div>
      </form>
    </DialogFrame>
  );
}
