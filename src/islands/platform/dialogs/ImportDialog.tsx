import { useId, useState, type FormEvent } from 'react';
import { api, ApiError } from '../../../stores/api.ts';
import { closeDialog } from '../../../stores/dialogs.ts';
import { refreshListing } from '../../../stores/files.ts';
import { useT, t as translate } from '../../../stores/i18n.ts';
import { dismissToast, showAlert, toast } from '../../../stores/ui.ts';
import { DialogButtons, DialogFrame } from './DialogFrame.tsx';

interface Job {
  id: string;
  attributes: { status: 'running' | 'done' | 'failed'; results: ({ url: string; status: 'done'; name: string } | { url: string; status: 'failed'; message: string })[] };
}

const POLL_MS = 1500;

/** Follows an import on the server until it ends, then says how it went and refreshes the view. */
function follow(id: string, startedToast: number): void {
  const tick = async () => {
    try {
      const job = (await api.get<{ data: Job }>(`/api/upload/remote/${encodeURIComponent(id)}`)).data;
      if (job.attributes.status === 'running') return void setTimeout(tick, POLL_MS);
      const failed = job.attributes.results.filter((r) => r.status === 'failed');
      const done = job.attributes.results.length - failed.length;
      if (done) toast('success', translate('uploads.import_done', { count: done }));
      if (failed.length || job.attributes.status === 'failed') {
        // "Importing…" is no longer true: the popup alone tells what happened.
        dismissToast(startedToast);
        showAlert({ title: translate('uploads.import_failed_title'), message: failed.map((f) => `${f.url}: ${'message' in f ? f.message : ''}`).join('\n') || translate('popup_error.message') });
      }
      void refreshListing();
    } catch {
      /* the API client already handled a signed-out session */
    }
  };
  setTimeout(tick, POLL_MS);
}

/** Import from URL: the server fetches each address in the background into this folder. */
export function ImportDialog({ parentId }: { parentId: string | null }) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const urls = text.split(/\s+/).map((u) => u.trim()).filter(Boolean);
    if (!urls.length) return setError(t('uploads.import_empty'));
    setBusy(true);
    setError('');
    try {
      const res = await api.post<{ data: Job }>('/api/upload/remote', { urls, parent_id: parentId });
      closeDialog();
      follow(res.data.id, toast('success', t('uploads.import_started', { count: urls.length })));
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) setError(Object.values(err.errors)[0]?.[0] ?? err.message);
      else {
        closeDialog();
        showAlert({ title: t('uploads.import_failed_title'), message: err instanceof ApiError ? err.message : t('popup_error.message') });
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <DialogFrame title={t('uploads.import_url')} description={t('uploads.import_text')}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <label className="label" htmlFor={id}>
          {t('uploads.import_urls')}
        </label>
        <textarea
          id={id}
          className="input min-h-28 font-mono text-sm"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="https://example.com/report.pdf"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {error && (
          <p id={`${id}-error`} className="field-error">
            {error}
          </p>
        )}
        <DialogButtons cancel={t('actions.cancel')} submit={t('uploads.import_submit')} busy={busy} />
      </form>
    </DialogFrame>
  );
}
