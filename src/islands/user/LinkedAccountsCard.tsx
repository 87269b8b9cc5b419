import { useEffect, useState } from 'react';
import { Spinner } from '../../components/Spinner.tsx';
import { SOCIAL_ICONS } from '../../components/socialIcons.ts';
import { api, ApiError } from '../../stores/api.ts';
import { formatDateTime } from '../../stores/dates.ts';
import { useT } from '../../stores/i18n.ts';
import { toast } from '../../stores/ui.ts';

/**
 * Accounts at Google, GitHub and Facebook linked to this one (GET /api/user/identities): link one
 * (the same redirect as sign-in, with `intent=link`; the callback comes back here with
 * `?social=<outcome>&provider=…`) or unlink it, which the server refuses for the last way in.
 */
type Provider = keyof typeof SOCIAL_ICONS;
const NAMES: Record<Provider, string> = { google: 'Google', github: 'GitHub', facebook: 'Facebook' };
const OUTCOMES = ['linked', 'cancelled', 'failed', 'linked_elsewhere', 'provider_taken', 'session'] as const;
type Outcome = (typeof OUTCOMES)[number];

interface Link {
  provider: string;
  email: string | null;
  linked_at: string;
  last_used_at: string | null;
}
interface Answer {
  data: Link[];
  meta: { available: Provider[]; has_password: boolean };
}

const isProvider = (p: string | null): p is Provider => p !== null && p in NAMES;

/** The outcome a link brought back in the address, read once and then removed from it. */
function takeOutcome(): { outcome: Outcome; provider: Provider } | null {
  const params = new URLSearchParams(window.location.search);
  const outcome = params.get('social');
  const provider = params.get('provider');
  if (!outcome) return null;
  params.delete('social');
  params.delete('provider');
  const rest = params.toString();
  window.history.replaceState(window.history.state, '', window.location.pathname + (rest ? `?${rest}` : '') + window.location.hash);
  return (OUTCOMES as readonly string[]).includes(outcome) && isProvider(provider) ? { outcome: outcome as Outcome, provider } : null;
}

export function LinkedAccountsCard() {
  const t = useT();
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState<Provider | null>(null);
  const [notice, setNotice] = useState<{ kind: 'success' | 'danger'; text: string } | null>(null);

  const reload = () =>
    api
      .get<Answer>('/api/user/identities')
      .then((res) => {
        setAnswer(res);
        setFailed(false);
      })
      .catch(() => setFailed(true));

  useEffect(() => {
    const back = takeOutcome();
    if (back) setNotice({ kind: back.outcome === 'linked' ? 'success' : 'danger', text: t(`social.outcome_${back.outcome}`, { provider: NAMES[back.provider] }) });
    void reload();
  }, []);

  const startLink = async (provider: Provider) => {
    setBusy(provider);
    setNotice(null);
    try {
      const { url } = await api.get<{ url: string }>(`/api/socialite/${provider}/redirect?intent=link`);
      window.location.assign(url);
    } catch (error) {
      setNotice({ kind: 'danger', text: error instanceof Error ? error.message : String(error) });
      setBusy(null);
    }
  };

  const unlink = async (provider: Provider) => {
    setBusy(provider);
    setNotice(null);
    try {
      await api.delete(`/api/user/identities/${provider}`);
      toast('success', t('social.unlinked', { provider: NAMES[provider] }));
      await reload();
    } catch (error) {
      setNotice({ kind: 'danger', text: error instanceof ApiError && error.code === 'last_way_in' ? t('social.last_way_in') : error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(null);
    }
  };

  const linked = new Map((answer?.data ?? []).filter((l) => isProvider(l.provider)).map((l) => [l.provider as Provider, l]));
  const shown = (Object.keys(NAMES) as Provider[]).filter((p) => linked.has(p) || answer?.meta.available.includes(p));
  // Nothing to link and nothing linked: the instance has no social sign-in, so no card.
  if (answer && shown.length === 0) return null;

  return (
    <section className="card mt-6 max-w-lg" aria-labelledby="linked-accounts-title">
      <div className="px-6 pt-6">
        <h2 id="linked-accounts-title" className="text-lg font-semibold">
          {t('social.card_title')}
        </h2>
        <p className="mt-1 text-sm text-muted">{t('social.card_subtitle')}</p>
      </div>
      {notice && (
        <p className={`${notice.kind === 'success' ? 'notice-success' : 'notice-danger'} mx-6 mt-4`} role={notice.kind === 'success' ? 'status' : 'alert'}>
          {notice.text}
        </p>
      )}
      {!answer && !failed && (
        <div className="flex justify-center py-8">
          <Spinner label={t('app.loading')} />
        </div>
      )}
      {failed && (
        <div className="flex flex-wrap items-center gap-3 px-6 py-5">
          <p className="flex-1 text-sm text-danger-text">{t('social.load_failed')}</p>
          <button type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={() => void reload()}>
            {t('social.retry')}
          </button>
        </div>
      )}
      {answer && (
        <ul className="mt-4 divide-y divide-border border-t border-border">
          {shown.map((p) => {
            const link = linked.get(p);
            const icon = SOCIAL_ICONS[p];
            return (
              <li key={p} className="flex flex-wrap items-center gap-3 px-6 py-4" data-testid={`linked-${p}`}>
                <svg viewBox={icon.viewBox} className="size-6 shrink-0" aria-hidden="true">
                  {icon.paths.map((path) => (
                    <path key={path.d.slice(0, 12)} d={path.d} fill={path.fill} />
                  ))}
                </svg>
                <div className="min-w-0 flex-1">
                  <p className="font-semibold">{NAMES[p]}</p>
                  <p className="text-sm text-muted [overflow-wrap:anywhere]">
                    {link ? (link.email ? t('social.linked_as', { email: link.email, date: formatDateTime(link.linked_at) }) : t('social.linked_since', { date: formatDateTime(link.linked_at) })) : t('social.not_linked')}
                  </p>
                </div>
                {link ? (
                  <button type="button" className="btn-secondary px-3 py-1.5 text-sm text-danger" disabled={busy !== null} onClick={() => void unlink(p)} aria-label={t('social.unlink_label', { provider: NAMES[p] })}>
                    {t('social.unlink')}
                  </button>
                ) : (
                  <button type="button" className="btn-secondary px-3 py-1.5 text-sm" disabled={busy !== null} onClick={() => void startLink(p)} aria-label={t('social.link_label', { provider: NAMES[p] })}>
                    {busy === p ? t('social.redirecting') : t('social.link')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {answer && !answer.meta.has_password && (
        <p className="border-t border-border px-6 py-4 text-sm text-muted">
          {t('social.no_password')}{' '}
          <a className="link" href="/forgotten-password">
            {t('social.set_password')}
          </a>
        </p>
      )}
    </section>
  );
}
