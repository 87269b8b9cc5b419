import { browserSupportsWebAuthn, startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { Fingerprint, KeyRound } from 'lucide-react';
import { AlertDialog } from 'radix-ui';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { FormField } from '../../components/FormField.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { api, ApiError } from '../../stores/api.ts';
import { formatDate, formatDateTime } from '../../stores/dates.ts';
import { useT, type Translate } from '../../stores/i18n.ts';
import { toast } from '../../stores/ui.ts';
import { hostCannotHavePasskeys, passkeyErrorMessage } from '../auth/passkey-errors.ts';

interface Passkey {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

const MAX_NAME = 64;

/** The server trims and checks too; checked here first so nobody meets the device prompt for a name that will be refused. */
function nameError(name: string, t: Translate): string {
  const trimmed = name.trim();
  if (!trimmed) return t('passkeys.name_required');
  if (trimmed.length > MAX_NAME) return t('passkeys.name_too_long');
  return '';
}

/** Settings › Password: the account's passkeys, to add (named first), rename and remove. */
export function PasskeysCard() {
  const t = useT();
  const titleId = useId();
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [supported, setSupported] = useState(true);
  // At an IP address no passkey can be added (passkey-errors.ts): the card says why instead of inviting one.
  const atIpAddress = hostCannotHavePasskeys(location.hostname);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  // Focus goes back to the Rename button the editor came from, for keyboard use.
  const [refocus, setRefocus] = useState<string | null>(null);
  useEffect(() => {
    if (!refocus) return;
    list.current?.querySelector<HTMLElement>(`[data-rename="${CSS.escape(refocus)}"]`)?.focus();
    setRefocus(null);
  }, [refocus]);

  const reload = () => api.get<{ data: Passkey[] }>('/api/user/passkeys').then((res) => setPasskeys(res.data));
  useEffect(() => {
    setSupported(browserSupportsWebAuthn());
    reload().catch(() => setPasskeys([]));
  }, []);

  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name') ?? '');
    const invalid = nameError(name, t);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    try {
      const options = await api.post<{ data: PublicKeyCredentialCreationOptionsJSON }>('/api/user/passkeys/registration-options');
      const credential = await startRegistration({ optionsJSON: options.data });
      await api.post('/api/user/passkeys', { name: name.trim(), credential });
      form.reset();
      toast('success', t('passkeys.added'));
      await reload();
    } catch (err) {
      setError(err instanceof ApiError && err.errors.name ? err.errors.name[0]! : passkeyErrorMessage(err, t));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (passkey: Passkey) => {
    try {
      await api.delete(`/api/user/passkeys/${encodeURIComponent(passkey.id)}`);
      toast('success', t('passkeys.removed'));
      await reload();
    } catch (err) {
      toast('danger', err instanceof Error ? err.message : String(err));
    }
  };

  return (
    <section className="card mt-6 max-w-lg" aria-labelledby={titleId} data-testid="passkeys-card">
      <div className="p-6 pb-4">
        <h2 id={titleId} className="text-lg font-bold tracking-tight">
          {t('passkeys.title')}
        </h2>
        <p className="mt-1 text-sm text-muted">{t('passkeys.subtitle')}</p>
      </div>

      {passkeys === null && (
        <div className="flex justify-center py-8">
          <Spinner label={t('app.loading')} />
        </div>
      )}
      {passkeys?.length === 0 && supported && !atIpAddress && (
        <div className="flex flex-col items-center gap-3 border-t border-border px-6 py-8 text-center">
          <span className="flex size-12 items-center justify-center rounded-2xl bg-surface-2 text-muted">
            <Fingerprint className="size-6" aria-hidden />
          </span>
          <p className="text-sm text-muted">{t('passkeys.empty')}</p>
        </div>
      )}
      {passkeys && passkeys.length > 0 && (
        <ul ref={list} className="divide-y divide-border border-t border-border" aria-label={t('passkeys.title')}>
          {passkeys.map((passkey) =>
            editing === passkey.id ? (
              <RenameRow
                key={passkey.id}
                passkey={passkey}
                onDone={(renamed) => {
                  setEditing(null);
                  if (renamed) void reload().then(() => setRefocus(passkey.id));
                  else setRefocus(passkey.id);
                }}
              />
            ) : (
              <li key={passkey.id} className="flex flex-wrap items-center gap-3 px-6 py-4">
                <KeyRound className="size-5 shrink-0 text-muted" aria-hidden />
                <div className="min-w-[12rem] flex-1">
                  <p className="truncate font-semibold">{passkey.name}</p>
                  <p className="text-sm text-muted">
                    {t('passkeys.created', { date: formatDate(passkey.created_at) })}
                    {' · '}
                    {passkey.last_used_at ? t('passkeys.last_used', { date: formatDateTime(passkey.last_used_at) }) : t('passkeys.never_used')}
                  </p>
                </div>
                <div className="ml-8 flex gap-2 sm:ml-0">
                  <button type="button" data-rename={passkey.id} className="btn-secondary px-3 py-1.5 text-sm" onClick={() => setEditing(passkey.id)} aria-label={t('passkeys.rename_named', { name: passkey.name })}>
                    {t('passkeys.rename')}
                  </button>
                  <RemoveButton passkey={passkey} onConfirm={() => void remove(passkey)} />
                </div>
              </li>
            ),
          )}
        </ul>
      )}

      <div className="border-t border-border p-6">
        {atIpAddress ? (
          <p className="notice-warning" role="status">
            {t('passkeys.needs_host_name', { host: location.hostname })}
          </p>
        ) : supported ? (
          <form className="flex flex-wrap items-start gap-3" onSubmit={(e) => void add(e)} noValidate>
            <div className="min-w-[200px] flex-1 [&>div]:mb-0">
              <FormField label={t('passkeys.name')} name="name" maxLength={MAX_NAME} placeholder={t('passkeys.name_placeholder')} error={error || undefined} autoComplete="off" onChange={() => setError('')} />
            </div>
            <button type="submit" className="btn-primary sm:mt-[26px]" disabled={busy}>
              {busy ? t('passkeys.adding') : t('passkeys.add')}
            </button>
          </form>
        ) : (
          <p className="notice-warning" role="status">
            {t('passkeys.unsupported')}
          </p>
        )}
      </div>
    </section>
  );
}

function RenameRow({ passkey, onDone }: { passkey: Passkey; onDone: (renamed: boolean) => void }) {
  const t = useT();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name') ?? '');
    const invalid = nameError(name, t);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    try {
      await api.patch(`/api/user/passkeys/${encodeURIComponent(passkey.id)}`, { name: name.trim() });
      toast('success', t('passkeys.renamed'));
      onDone(true);
    } catch (err) {
      setError(err instanceof ApiError ? (err.errors.name?.[0] ?? err.message) : String(err));
      setBusy(false);
    }
  };
  return (
    <li className="px-6 py-4">
      <form className="flex flex-wrap items-start gap-2" onSubmit={(e) => void save(e)} onKeyDown={(e) => e.key === 'Escape' && onDone(false)} noValidate>
        <div className="min-w-[180px] flex-1 [&>div]:mb-0">
          <FormField label={t('passkeys.name')} name="name" defaultValue={passkey.name} maxLength={MAX_NAME} error={error || undefined} autoFocus autoComplete="off" />
        </div>
        <div className="flex gap-2 sm:mt-[26px]">
          <button type="submit" className="btn-primary px-3 py-2 text-sm" disabled={busy}>
            {t('passkeys.save')}
          </button>
          <button type="button" className="btn-secondary px-3 py-2 text-sm" onClick={() => onDone(false)}>
            {t('passkeys.cancel')}
          </button>
        </div>
      </form>
    </li>
  );
}

function RemoveButton({ passkey, onConfirm }: { passkey: Passkey; onConfirm: () => void }) {
  const t = useT();
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>
        <button type="button" className="btn-secondary px-3 py-1.5 text-sm text-danger" aria-label={t('passkeys.remove_named', { name: passkey.name })}>
          {t('passkeys.remove')}
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-backdrop" />
        <AlertDialog.Content className="card fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 p-6 md:w-[440px]">
          <AlertDialog.Title className="text-xl font-bold tracking-tight">{t('passkeys.remove_title', { name: passkey.name })}</AlertDialog.Title>
          <AlertDialog.Description className="mt-1.5 text-[15px] text-muted">{t('passkeys.remove_text')}</AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-2">
            <AlertDialog.Cancel className="btn-secondary">{t('passkeys.cancel')}</AlertDialog.Cancel>
            <AlertDialog.Action className="btn-danger" onClick={onConfirm}>
              {t('passkeys.remove')}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
