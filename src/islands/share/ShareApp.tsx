import { useStore } from '@nanostores/react';
import { Download, Eye } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Logo } from '../../components/Logo.tsx';
import { FullPageSpinner } from '../../components/Spinner.tsx';
import { $config } from '../../stores/config.ts';
import { formatSize, type Item } from '../../stores/files.ts';
import { may } from '../../stores/abilities.ts';
import { $translations, loadTranslations, useT } from '../../stores/i18n.ts';
import { $link, loadLink, openSharedFolder, ShareError, shareApi, unlock } from '../../stores/shareBrowser.ts';
import { PublicHeader } from './PublicHeader.tsx';
import { ScopedFolder } from './ScopedFolder.tsx';
import { FileViewer } from '../platform/FileViewer.tsx';
import { ItemIcon } from '../platform/ItemIcon.tsx';

/** The folder id in /share/:token/files/:id, or null for the shared folder itself. */
export function folderFromPath(): string | null {
  return location.pathname.split('/')[4] || null;
}

/** The public share pages: the password gate, the shared folder browser and the single-file page. */
export default function ShareApp({ token }: { token: string }) {
  const t = useT();
  const translations = useStore($translations);
  const link = useStore($link);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void loadTranslations($config.get()?.locale ?? 'en');
    void loadLink(token).then((loaded) => {
      const base = `/share/${token}`;
      if (!loaded.authenticated) {
        if (location.pathname !== `${base}/authenticate`) history.replaceState(null, '', `${base}/authenticate`);
        return;
      }
      const want = loaded.type === 'folder' ? `${base}/files` : `${base}/file`;
      if (!location.pathname.startsWith(want)) history.replaceState(null, '', want);
      if (loaded.type === 'folder') void openSharedFolder(token, folderFromPath());
    });
    const onPop = () => void openSharedFolder(token, folderFromPath());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [token]);

  if (!translations || !link) return <FullPageSpinner label="Loading…" />;
  if (!link.authenticated) return <Gate token={token} />;
  return (
    <>
    <PublicHeader />
    <main className="mx-auto max-w-4xl px-4 py-8">
      {error && (
        <div role="alert" className="notice-danger mb-4">
          {error}
        </div>
      )}
      {link.type === 'folder' ? <ScopedFolder api={shareApi(token)} onError={setError} /> : link.item && <SingleFile item={link.item} />}
      <p className="mt-8 text-center text-xs text-muted">{link.owner_name && t('sharing.shared_by', { name: link.owner_name })}</p>
    </main>
    </>
  );
}

function Gate({ token }: { token: string }) {
  const t = useT();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await unlock(token, password);
      location.assign(`/share/${token}/files`);
    } catch (e) {
      setError(e instanceof ShareError ? e.message : String(e));
    }
  };
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-8 p-4">
      <Logo />
      <form onSubmit={(e) => void submit(e)} className="card w-full max-w-sm p-6">
        <h1 className="text-xl font-bold">{t('sharing.gate_title')}</h1>
        <p className="mt-1 text-[15px] text-muted">{t('sharing.gate_text')}</p>
        <label className="mt-5 block text-sm font-semibold">
          {t('auth.password')}
          <input type="password" className="input mt-1.5 w-full" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus required />
        </label>
        {error && (
          <p role="alert" className="mt-2 text-sm text-danger">
            {error}
          </p>
        )}
        <button type="submit" className="btn-primary mt-5 w-full">
          {t('sharing.unlock')}
        </button>
      </form>
    </main>
  );
}

/** A shared file: its picture (or icon), name and size; the picture opens the viewer, the button downloads. */
function SingleFile({ item }: { item: Item }) {
  const t = useT();
  const [viewing, setViewing] = useState(false);
  /** What opened the viewer (the picture or the Preview button): focus goes back there. */
  const opener = useRef<HTMLElement | null>(null);
  const view = () => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setViewing(true);
  };
  const a = item.attributes;
  const download = a.file_url && may(item, 'download') ? `${a.file_url}?download=1` : null;
  return (
    <div className="card flex flex-col items-center gap-4 p-6 text-center sm:p-8">
      {a.file_url ? (
        <button
          type="button"
          onClick={view}
          aria-label={`${t('preview.open')}: ${a.name}`}
          className="rounded-control p-1 transition-opacity hover:opacity-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          data-open-id={item.id}
        >
          {a.thumbnail ? <img src={a.thumbnail.md} alt="" className="max-h-[60dvh] rounded-control" /> : <ItemIcon item={item} size="lg" />}
        </button>
      ) : a.thumbnail ? (
        <img src={a.thumbnail.md} alt="" className="max-h-[60dvh] rounded-control" />
      ) : (
        <ItemIcon item={item} size="lg" />
      )}
      <h1 className="text-xl font-bold break-all">{a.name}</h1>
      <p className="text-sm text-muted">{formatSize(a.size)}</p>
      {download && (
        <div className="flex flex-wrap justify-center gap-2">
          <button type="button" className="btn-secondary" onClick={view}>
            <Eye className="size-4" aria-hidden /> {t('preview.open')}
          </button>
          <a className="btn-primary" href={download} target="_self" download={a.name}>
            <Download className="size-4" aria-hidden /> {t('sharing.download')}
          </a>
        </div>
      )}
      {viewing && <FileViewer item={item} files={[item]} download={download} onShow={() => undefined} onClose={() => setViewing(false)} onClosed={() => opener.current?.focus()} />}
    </div>
  );
}
