import { useStore } from '@nanostores/react';
import { CheckCircle2, Inbox } from 'lucide-react';
import { AlertDialog } from 'radix-ui';
import { useEffect, useState } from 'react';
import { FullPageSpinner } from '../../components/Spinner.tsx';
import { $config } from '../../stores/config.ts';
import { $translations, loadTranslations, useT } from '../../stores/i18n.ts';
import { $request, closeRequest, loadRequest, requestApi } from '../../stores/shareBrowser.ts';
import { PublicHeader } from './PublicHeader.tsx';
import { ScopedFolder } from './ScopedFolder.tsx';

/** The folder id in /request/:token/upload/:id, or null for the request's folder. */
function folderFromPath(): string | null {
  return location.pathname.split('/')[4] || null;
}

/** /request/:token/upload/:id?: the person asked to upload does it here, then says they are done. */
export default function RequestApp({ token }: { token: string }) {
  const t = useT();
  const translations = useStore($translations);
  const request = useStore($request);
  const [error, setError] = useState<string | null>(null);
  const api = requestApi(token);

  useEffect(() => {
    void loadTranslations($config.get()?.locale ?? 'en');
    void loadRequest(token).then((loaded) => {
      if (loaded.status === 'active') void api.open(folderFromPath());
    });
    const onPop = () => void api.open(folderFromPath());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  if (!translations || !request) return <FullPageSpinner label="Loading…" />;
  const done = async () => {
    try {
      await closeRequest(token);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <>
    <PublicHeader />
    <main className="mx-auto max-w-4xl px-4 py-8">
      <header className="card mb-6 flex items-start gap-4 p-5">
        <span className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-brand-soft text-brand">
          <Inbox className="size-6" aria-hidden />
        </span>
        <div className="min-w-0">
          <h1 className="text-xl font-bold">{t('requests.asks', { name: request.owner_name ?? '' })}</h1>
          {request.name && <p className="mt-0.5 font-medium">{request.name}</p>}
          {request.notes && <p className="mt-1 text-[15px] whitespace-pre-line text-muted">{request.notes}</p>}
        </div>
      </header>
      {error && (
        <div role="alert" className="notice-danger mb-4">
          {error}
        </div>
      )}
      {request.status === 'active' ? (
        <ScopedFolder api={api} uploadPrimary onError={setError}>
          <AlertDialog.Root>
            <AlertDialog.Trigger asChild>
              <button type="button" className="btn-secondary">
                <CheckCircle2 className="size-4" aria-hidden /> {t('requests.done')}
              </button>
            </AlertDialog.Trigger>
            <AlertDialog.Portal>
              <AlertDialog.Overlay className="fixed inset-0 z-50 bg-backdrop" />
              <AlertDialog.Content className="card fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 p-6 md:w-[440px]">
                <AlertDialog.Title className="text-xl font-bold tracking-tight">{t('requests.done_title')}</AlertDialog.Title>
                <AlertDialog.Description className="mt-1.5 text-[15px] text-muted">{t('requests.done_text')}</AlertDialog.Description>
                <div className="mt-6 flex justify-end gap-2">
                  <AlertDialog.Cancel className="btn-secondary">{t('actions.cancel')}</AlertDialog.Cancel>
                  <AlertDialog.Action className="btn-primary" onClick={() => void done()}>
                    {t('requests.done_confirm')}
                  </AlertDialog.Action>
                </div>
              </AlertDialog.Content>
            </AlertDialog.Portal>
          </AlertDialog.Root>
        </ScopedFolder>
      ) : (
        <div className="card flex flex-col items-center px-6 py-16 text-center" data-testid="request-closed">
          <CheckCircle2 className="mb-3 size-10 text-success" aria-hidden />
          <h2 className="text-lg font-bold">{request.status === 'filled' ? t('requests.filled_title') : t('requests.expired_title')}</h2>
          <p className="mt-1 max-w-sm text-[15px] text-muted">{request.status === 'filled' ? t('requests.filled_text') : t('requests.expired_text')}</p>
        </div>
      )}
    </main>
    </>
  );
}
