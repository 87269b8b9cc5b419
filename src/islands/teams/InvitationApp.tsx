import { useStore } from '@nanostores/react';
import { Users } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Avatar } from '../../components/Avatar.tsx';
import { FullPageSpinner, Spinner } from '../../components/Spinner.tsx';
import { api, ApiError } from '../../stores/api.ts';
import { $config } from '../../stores/config.ts';
import { $translations, loadTranslations, useT } from '../../stores/i18n.ts';
import { acceptInvitation, declineInvitation } from '../../stores/teams.ts';
import { PublicHeader } from '../share/PublicHeader.tsx';

/** `GET /api/teams/invitations/{id}`: what a visitor may know of an invitation. */
interface InvitationInfo {
  id: string;
  email: string;
  permission: 'can_edit' | 'can_view';
  status: string;
  expires_at?: string | null;
  folder: { id?: string; name: string };
  inviter: { name: string; email?: string; avatar?: { xs: string; sm: string; md: string } | null; color?: string | null };
  /** Whether the invited address has an account: sign-in is offered first, else sign-up. */
  has_account?: boolean;
}

type State = { kind: 'loading' } | { kind: 'missing'; message: string } | { kind: 'ready'; info: InvitationInfo } | { kind: 'declined' };

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * /team-folder-invitation/:id (SPEC §2, open to visitors): the folder and who invites. The invited
 * account accepts or declines; a visitor signs in or signs up (the email filled in) and comes back
 * here with `accept=1`, which accepts at once and opens the team; another account is told so.
 */
export default function InvitationApp({ id, signedInEmail }: { id: string; signedInEmail: string | null }) {
  const t = useT();
  const translations = useStore($translations);
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const accept = async (info: InvitationInfo) => {
    setBusy(true);
    setError('');
    try {
      const joined = await acceptInvitation(info.id);
      location.assign(`/platform/shared-with-me/${encodeURIComponent(joined.folder_id)}`);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('popup_error.message'));
      setBusy(false);
    }
  };

  useEffect(() => {
    void loadTranslations($config.get()?.locale ?? 'en');
    api
      .get<{ data: InvitationInfo }>(`/api/teams/invitations/${encodeURIComponent(id)}`)
      .then(({ data }) => {
        setState({ kind: 'ready', info: data });
        // Back from signing in (or up) as the invited address: straight into the team. Signing up
        // has already accepted it (the server does that for new accounts).
        const returning = new URLSearchParams(location.search).get('accept') === '1';
        if (!returning || !signedInEmail || !same(signedInEmail, data.email)) return;
        if (data.status === 'pending') void accept(data);
        else if (data.status === 'accepted') location.assign(data.folder.id ? `/platform/shared-with-me/${encodeURIComponent(data.folder.id)}` : '/platform/shared-with-me');
      })
      .catch((err: unknown) => setState({ kind: 'missing', message: err instanceof ApiError && err.status !== 404 ? err.message : '' }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);

  if (!translations) return <FullPageSpinner label="Loading…" />;
  return (
    <>
      <PublicHeader />
      <main className="mx-auto flex max-w-lg flex-col px-4 py-10">
        <div className="card p-6 sm:p-8" aria-busy={state.kind === 'loading'}>
          {state.kind === 'loading' && (
            <div className="flex justify-center py-10">
              <Spinner label={t('app.loading')} />
            </div>
          )}
          {state.kind === 'missing' && <Notice title={t('teams.invitation_missing_title')} text={state.message || t('teams.invitation_missing_text')} />}
          {state.kind === 'declined' && <Notice title={t('teams.invitation_declined_title')} text={t('teams.you_decline_invitation')} />}
          {state.kind === 'ready' && (
            <Invitation
              info={state.info}
              signedInEmail={signedInEmail}
              busy={busy}
              error={error}
              onAccept={() => void accept(state.info)}
              onDecline={() => {
                setBusy(true);
                declineInvitation(state.info.id)
                  .then(() => setState({ kind: 'declined' }))
                  .catch((err: unknown) => setError(err instanceof ApiError ? err.message : t('popup_error.message')))
                  .finally(() => setBusy(false));
              }}
            />
          )}
        </div>
      </main>
    </>
  );
}

function Notice({ title, text }: { title: string; text: string }) {
  const t = useT();
  return (
    <div className="text-center">
      <h1 className="text-xl font-bold tracking-tight">{title}</h1>
      <p className="mt-2 text-[15px] text-muted">{text}</p>
      <a className="btn-secondary mt-6" href="/">
        {t('pages.go_home')}
      </a>
    </div>
  );
}

function Invitation({ info, signedInEmail, busy, error, onAccept, onDecline }: { info: InvitationInfo; signedInEmail: string | null; busy: boolean; error: string; onAccept: () => void; onDecline: () => void }) {
  const t = useT();
  const back = `/team-folder-invitation/${encodeURIComponent(info.id)}?accept=1`;
  const open = info.status === 'pending';
  return (
    <div className="flex flex-col items-center text-center">
      <span className="mb-4 flex size-14 items-center justify-center rounded-2xl bg-brand-soft text-brand">
        <Users className="size-7" aria-hidden />
      </span>
      <h1 className="text-xl font-bold tracking-tight">{t('teams.invitation_title', { name: info.folder.name })}</h1>
      <div className="mt-4 flex items-center gap-3 rounded-control bg-surface-2 px-4 py-3 text-left">
        <Avatar size={40} name={info.inviter.name} email={info.inviter.email} color={info.inviter.color ?? null} avatar={info.inviter.avatar ?? null} />
        <p className="text-sm">
          {t('teams.invitation_from', { name: info.inviter.name })}
          <br />
          <span className="text-muted">{t('teams.invitation_as', { permission: t(`teams.${info.permission}`) })}</span>
        </p>
      </div>
      <p className="mt-4 text-sm text-muted">{t('teams.invitation_for', { email: info.email })}</p>
      {error && (
        <p role="alert" className="notice-danger mt-4 w-full">
          {error}
        </p>
      )}
      {!open ? (
        <p role="alert" className="notice-danger mt-6 w-full">
          {t(info.status === 'expired' ? 'teams.invitation_expired' : 'teams.invitation_closed')}
        </p>
      ) : !signedInEmail ? (
        <div className={`mt-6 flex w-full gap-2 ${info.has_account ? 'flex-col-reverse' : 'flex-col'}`}>
          <a className={`${info.has_account ? 'btn-secondary' : 'btn-primary'} w-full`} href={`/sign-up?${new URLSearchParams({ email: info.email, redirect: back })}`}>
            {t('teams.sign_up_to_join')}
          </a>
          <a className={`${info.has_account ? 'btn-primary' : 'btn-secondary'} w-full`} href={`/sign-in?${new URLSearchParams({ email: info.email, redirect: back })}`}>
            {t('teams.sign_in_to_join')}
          </a>
        </div>
      ) : !same(signedInEmail, info.email) ? (
        <>
          <p role="alert" className="notice-danger mt-6 w-full" data-testid="wrong-account">
            {t('teams.invitation_wrong_account', { email: info.email, current: signedInEmail })}
          </p>
          <button
            type="button"
            className="btn-secondary mt-3 w-full"
            // Signed out, the page offers signing in as the invited address.
            onClick={() => void api.post('/logout').finally(() => location.reload())}
          >
            {t('teams.sign_out_to_switch')}
          </button>
        </>
      ) : (
        <div className="mt-6 flex w-full gap-2">
          <button type="button" className="btn-secondary flex-1" disabled={busy} onClick={onDecline}>
            {t('teams.decline')}
          </button>
          <button type="button" className="btn-primary flex-1" disabled={busy} onClick={onAccept}>
            {t('teams.accept')}
          </button>
        </div>
      )}
    </div>
  );
}
