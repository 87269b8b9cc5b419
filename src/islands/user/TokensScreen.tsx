import { Check, Copy, KeyRound } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { FormField } from '../../components/FormField.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { useTitle } from '../../components/useTitle.ts';
import { api, ApiError } from '../../stores/api.ts';
import { useT } from '../../stores/i18n.ts';
import { toast } from '../../stores/ui.ts';
import { SettingsNav } from './SettingsNav.tsx';
import { WebDavCard } from './WebDavCard.tsx';
import { formatDateTime } from '../../stores/dates.ts';

interface AccessToken {
  id: string;
  name: string;
  last_used_at: string | null;
  created_at: string;
}

export default function TokensScreen() {
  const t = useT();
  useTitle(t('tokens.title'));
  const [tokens, setTokens] = useState<AccessToken[] | null>(null);
  const [fresh, setFresh] = useState<{ name: string; token: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const reload = () => api.get<{ data: AccessToken[] }>('/api/user/tokens').then((res) => setTokens(res.data));
  useEffect(() => {
    reload().catch(() => setTokens([]));
  }, []);

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name') ?? '');
    setBusy(true);
    setError('');
    try {
      const res = await api.post<{ data: AccessToken; meta: { token: string } }>('/api/user/tokens', { name });
      setFresh({ name: res.data.name, token: res.meta.token });
      setCopied(false);
      form.reset();
      await reload();
    } catch (err) {
      setError(err instanceof ApiError ? (err.errors.name?.[0] ?? err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (token: AccessToken) => {
    await api.delete(`/api/user/tokens/${encodeURIComponent(token.id)}`);
    toast('success', t('tokens.revoked'));
    await reload();
  };

  return (
    <div>
      <PageHeader title={t('tokens.title')} subtitle={t('tokens.subtitle')} />
      <SettingsNav />
      <div className="flex flex-col gap-6">
        <form className="card flex flex-wrap items-start gap-3 p-6" onSubmit={(e) => void create(e)} noValidate>
          <div className="min-w-[220px] flex-1 [&>div]:mb-0">
            <FormField label={t('tokens.name')} name="name" maxLength={80} error={error || undefined} hint={t('tokens.name_hint')} />
          </div>
          <button type="submit" className="btn-primary sm:mt-[26px]" disabled={busy}>
            {t('tokens.create')}
          </button>
        </form>

        {fresh && (
          <div className="card border-success/40 p-5" role="status">
            <p className="mb-3 text-sm font-semibold text-success-text">{t('tokens.created')}</p>
            <div className="flex flex-wrap items-center gap-2">
              <code data-testid="new-token" className="min-w-0 flex-1 rounded-control bg-surface-2 px-3 py-2.5 font-mono text-sm break-all">
                {fresh.token}
              </code>
              <button
                type="button"
                className="btn-secondary"
                onClick={() => {
                  void navigator.clipboard?.writeText(fresh.token).then(() => setCopied(true));
                }}
              >
                {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
                {copied ? t('tokens.copied') : t('tokens.copy')}
              </button>
            </div>
          </div>
        )}

        <section className="card">
          {tokens === null && (
            <div className="flex justify-center py-10">
              <Spinner label={t('app.loading')} />
            </div>
          )}
          {tokens?.length === 0 && (
            <div className="flex flex-col items-center gap-3 px-6 py-12 text-center">
              <span className="flex size-12 items-center justify-center rounded-2xl bg-surface-2 text-muted">
                <KeyRound className="size-6" aria-hidden />
              </span>
              <p className="text-sm text-muted">{t('tokens.empty')}</p>
            </div>
          )}
          {tokens && tokens.length > 0 && (
            <ul className="divide-y divide-border">
              {tokens.map((token) => (
                <li key={token.id} className="flex flex-wrap items-center gap-3 px-6 py-4">
                  <KeyRound className="size-5 shrink-0 text-muted" aria-hidden />
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-semibold">{token.name}</p>
                    <p className="text-sm text-muted">{token.last_used_at ? t('tokens.last_used', { date: formatDateTime(token.last_used_at) }) : t('tokens.never_used')}</p>
                  </div>
                  <button type="button" className="btn-secondary px-3 py-1.5 text-sm text-danger" onClick={() => void revoke(token)} aria-label={`${t('tokens.revoke')} ${token.name}`}>
                    {t('tokens.revoke')}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>

        <WebDavCard />
      </div>
    </div>
  );
}
