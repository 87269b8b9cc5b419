import { useStore } from '@nanostores/react';
import { Download, FolderPlus, Pencil, Trash2, Upload } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { FullPageSpinner } from '../../components/Spinner.tsx';
import { $config } from '../../stores/config.ts';
import { formatSize, type Item } from '../../stores/files.ts';
import { $translations, loadTranslations, useT } from '../../stores/i18n.ts';
import { $link, $sharedItems, createSharedFolder, loadLink, openSharedFolder, removeShared, renameShared, ShareError, unlock, uploadShared, zipUrl } from '../../stores/shareBrowser.ts';
import { ItemIcon } from '../platform/ItemIcon.tsx';

/** The folder id in /share/:token/files/:id, or null for the shared folder itself. */
function folderFromPath(): string | null {
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
    <main className="mx-auto max-w-4xl px-4 py-8">
      {error && (
        <div role="alert" className="notice-danger mb-4">
          {error}
        </div>
      )}
      {link.type === 'folder' ? <Folder token={token} editor={link.permission === 'editor'} onError={setError} /> : link.item && <SingleFile item={link.item} />}
      <p className="mt-8 text-center text-xs text-muted">{link.owner_name && t('sharing.shared_by', { name: link.owner_name })}</p>
    </main>
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
    <main className="flex min-h-dvh items-center justify-center p-4">
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

function SingleFile({ item }: { item: Item }) {
  const t = useT();
  const a = item.attributes;
  return (
    <div className="card flex flex-col items-center gap-4 p-8 text-center">
      {a.thumbnail ? <img src={a.thumbnail.md} alt="" className="max-h-[60dvh] rounded-control" /> : <ItemIcon item={item} size="lg" />}
      <h1 className="text-xl font-bold break-all">{a.name}</h1>
      <p className="text-sm text-muted">{formatSize(a.size)}</p>
      {a.file_url && (
        <a className="btn-primary" href={`${a.file_url}?download=1`} target="_self" download={a.name}>
          <Download className="size-4" aria-hidden /> {t('sharing.download')}
        </a>
      )}
    </div>
  );
}

function Folder({ token, editor, onError }: { token: string; editor: boolean; onError: (m: string | null) => void }) {
  const t = useT();
  const listing = useStore($sharedItems);
  const [naming, setNaming] = useState<{ kind: 'create' } | { kind: 'rename'; item: Item } | null>(null);
  const [name, setName] = useState('');
  if (!listing) return <FullPageSpinner label={t('app.loading')} />;
  const { items, root, folderId } = listing;

  const run = async (work: () => Promise<void>) => {
    onError(null);
    try {
      await work();
    } catch (e) {
      onError(e instanceof Error ? e.message : String(e));
    }
  };
  const open = (id: string | null) => {
    history.pushState(null, '', `/share/${token}/files${id ? `/${id}` : ''}`);
    void run(() => openSharedFolder(token, id));
  };
  const submitName = (event: FormEvent) => {
    event.preventDefault();
    const current = naming;
    setNaming(null);
    if (current?.kind === 'create') void run(() => createSharedFolder(token, name, folderId));
    else if (current?.kind === 'rename') void run(() => renameShared(token, current.item, name));
  };

  return (
    <section>
      <header className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-2">
          {root?.attributes.parent_id && (
            <button type="button" className="btn-secondary" onClick={() => open(root.attributes.parent_id)} aria-label="Back">
              ←
            </button>
          )}
          <h1 className="truncate text-2xl font-bold tracking-tight">{root?.attributes.name}</h1>
        </div>
        <div className="flex flex-wrap gap-2">
          {editor && (
            <>
              <label className="btn-secondary cursor-pointer">
                <Upload className="size-4" aria-hidden /> {t('sharing.upload')}
                <input type="file" multiple className="sr-only" onChange={(e) => {
                  const files = [...(e.currentTarget.files ?? [])];
                  e.currentTarget.value = '';
                  void run(async () => {
                    for (const file of files) await uploadShared(token, file, folderId);
                  });
                }} />
              </label>
              <button type="button" className="btn-secondary" onClick={() => { setName(''); setNaming({ kind: 'create' }); }}>
                <FolderPlus className="size-4" aria-hidden /> {t('sharing.new_folder')}
              </button>
            </>
          )}
          {items.length > 0 && (
            <a className="btn-primary" href={zipUrl(token, items)} target="_self" download={`${root?.attributes.name ?? 'download'}.zip`}>
              <Download className="size-4" aria-hidden /> {t('sharing.download_all')}
            </a>
          )}
        </div>
      </header>
      {naming && (
        <form onSubmit={submitName} className="card mb-4 flex flex-wrap items-end gap-2 p-4">
          <label className="flex-1 text-sm font-semibold">
            {naming.kind === 'create' ? t('sharing.folder_name') : t('sharing.new_name')}
            <input className="input mt-1.5 w-full" value={name} onChange={(e) => setName(e.target.value)} autoFocus required />
          </label>
          <button type="button" className="btn-secondary" onClick={() => setNaming(null)}>
            {t('actions.cancel')}
          </button>
          <button type="submit" className="btn-primary">
            {t('actions.save')}
          </button>
        </form>
      )}
      {items.length === 0 ? (
        <p className="card px-6 py-16 text-center text-muted">{t('sharing.empty')}</p>
      ) : (
        <ul className="card divide-y divide-border">
          {items.map((item) => (
            <li key={item.id} className="flex items-center gap-3 px-4 py-2.5" data-testid="shared-item">
              <ItemIcon item={item} />
              <div className="min-w-0 flex-1">
                {item.type === 'folder' ? (
                  <button type="button" className="truncate text-left font-medium hover:underline" onClick={() => open(item.id)}>
                    {item.attributes.name}
                  </button>
                ) : (
                  <a className="truncate font-medium hover:underline" href={`${item.attributes.file_url}`} target="_self">
                    {item.attributes.name}
                  </a>
                )}
                <p className="text-xs text-muted">{item.type === 'folder' ? t('files.n_items', { count: item.attributes.items ?? 0 }) : formatSize(item.attributes.size)}</p>
              </div>
              {item.attributes.file_url && (
                <a className="btn-secondary" href={`${item.attributes.file_url}?download=1`} target="_self" download={item.attributes.name} aria-label={`${t('sharing.download')} ${item.attributes.name}`}>
                  <Download className="size-4" aria-hidden />
                </a>
              )}
              {editor && (
                <>
                  <button type="button" className="btn-secondary" aria-label={`${t('sharing.rename')} ${item.attributes.name}`} onClick={() => { setName(item.attributes.name); setNaming({ kind: 'rename', item }); }}>
                    <Pencil className="size-4" aria-hidden />
                  </button>
                  <button type="button" className="btn-secondary" aria-label={`${t('sharing.remove')} ${item.attributes.name}`} onClick={() => void run(() => removeShared(token, item))}>
                    <Trash2 className="size-4" aria-hidden />
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
