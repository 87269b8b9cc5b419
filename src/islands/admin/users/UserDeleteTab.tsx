import { CircleCheck, UserX } from 'lucide-react';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { LoadFailedCard, LoadingCard } from '../../../components/LoadStates.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { ApiError } from '../../../stores/api.ts';
import { formatDateTime } from '../../../stores/dates.ts';
import { formatSize } from '../../../stores/files.ts';
import { useT } from '../../../stores/i18n.ts';
import { DELETION_POLL_MS, loadUserDeletion, startUserDeletion, type UserDeletion } from './userDeletion.ts';

type State = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; deletion: UserDeletion };

/**
 * /admin/user/:id/delete: deletes the account for good once its email is typed again. While the
 * server removes the files it follows along (the counts so far); at the end it shows what went.
 */
export default function UserDeleteTab({ userId }: { userId: string }) {
  const t = useT();
  const [state, setState] = useState<State>({ status: 'loading' });
  const load = useCallback(() => {
    setState({ status: 'loading' });
    loadUserDeletion(userId).then(
      (res) => setState({ status: 'ready', deletion: res.data }),
      (error: unknown) => setState({ status: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
  }, [userId]);
  useEffect(load, [load]);

  const deletionState = state.status === 'ready' ? state.deletion.attributes.state : null;
  // While the files are being removed, ask again every second (without the loading state in between).
  useEffect(() => {
    if (deletionState !== 'running') return;
    const timer = setTimeout(() => {
      loadUserDeletion(userId).then(
        (res) => setState({ status: 'ready', deletion: res.data }),
        () => setState((s) => ({ ...s })),
      );
    }, DELETION_POLL_MS);
    return () => clearTimeout(timer);
  }, [userId, state, deletionState]);


  if (state.status === 'loading') return <LoadingCard />;
  if (state.status === 'error') return <LoadFailedCard title={t('admin_users.delete_load_failed')} detail={state.message} retryLabel={t('admin_users.delete_retry')} onRetry={load} />;
  const { deletion } = state;
  if (deletion.attributes.state === 'none') return <ConfirmDeletion userId={userId} deletion={deletion} onStarted={(d) => setState({ status: 'ready', deletion: d })} />;
  return <DeletionProgress deletion={deletion} />;
}

function ConfirmDeletion({ userId, deletion, onStarted }: { userId: string; deletion: UserDeletion; onStarted: (deletion: UserDeletion) => void }) {
  const t = useT();
  const id = useId();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const { email, holds } = deletion.attributes;
  const refusal = deletion.meta.refusal;
  const matches = typed.trim().toLowerCase() === email.toLowerCase();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!matches) return;
    setBusy(true);
    setError('');
    try {
      onStarted((await startUserDeletion(userId, typed.trim())).data);
    } catch (err) {
      setError(err instanceof ApiError ? (err.errors.email?.[0] ?? err.message) : String(err));
      setBusy(false);
    }
  };

  return (
    <section className="card border-danger/40 p-6" aria-labelledby={`${id}-title`}>
      <div className="flex items-start gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-2xl bg-danger/10 text-danger">
          <UserX className="size-5" aria-hidden />
        </span>
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="text-lg font-bold">
            {t('admin_users.delete_title')}
          </h2>
          <p className="mt-1 text-sm text-muted">{t('admin_users.delete_text')}</p>
        </div>
      </div>
      {holds && (
        <Counts
          title={t('admin_users.delete_holds')}
          counts={[
            [t('admin_users.delete_files'), String(holds.files)],
            [t('admin_users.delete_folders'), String(holds.folders)],
            [t('admin_users.delete_bytes'), formatSize(holds.bytes)],
          ]}
        />
      )}
      {refusal ? (
        <p role="alert" className="notice-danger mt-6">
          {t(refusal.code === 'self' ? 'admin_users.delete_refused_self' : 'admin_users.delete_refused_last_admin')}
        </p>
      ) : (
        <form className="mt-6 flex flex-wrap items-end gap-3" onSubmit={(e) => void submit(e)} noValidate>
          <div className="min-w-[240px] flex-1">
            <label className="label" htmlFor={`${id}-email`}>
              {t('admin_users.delete_confirm_label', { email })}
            </label>
            <input
              id={`${id}-email`}
              className="input"
              type="email"
              autoComplete="off"
              spellCheck={false}
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
          </div>
          <button type="submit" className="btn-danger" disabled={!matches || busy}>
            {t('admin_users.delete_button')}
          </button>
          {error && (
            <p id={`${id}-error`} role="alert" className="field-error w-full">
              {error}
            </p>
          )}
        </form>
      )}
    </section>
  );
}

function DeletionProgress({ deletion }: { deletion: UserDeletion }) {
  const t = useT();
  const id = useId();
  const { state, removed, requested_by, finished_at, email } = deletion.attributes;
  const done = state === 'done';
  const counts: [string, string][] = removed
    ? [
        [t('admin_users.delete_files'), String(removed.files)],
        [t('admin_users.delete_folders'), String(removed.folders)],
        [t('admin_users.delete_bytes'), formatSize(removed.bytes)],
        [t('admin_users.delete_shares'), String(removed.shares)],
        [t('admin_users.delete_requests'), String(removed.upload_requests)],
      ]
    : [];
  return (
    <section className="card p-6" aria-labelledby={`${id}-title`} data-testid="deletion-progress" data-state={state}>
      <div className="flex items-start gap-4">
        <span className={`flex size-11 shrink-0 items-center justify-center rounded-2xl ${done ? 'bg-success/10 text-success-text' : 'bg-surface-2'}`}>
          {done ? <CircleCheck className="size-5" aria-hidden /> : <Spinner size={20} label={t('admin_users.delete_running_title')} />}
        </span>
        <div className="min-w-0" role="status">
          <h2 id={`${id}-title`} className="text-lg font-bold">
            {done ? t('admin_users.delete_done_title') : t('admin_users.delete_running_title')}
          </h2>
          <p className="mt-0.5 truncate text-sm font-medium">{email}</p>
          <p className="mt-1 text-sm text-muted">
            {done && finished_at ? t('admin_users.delete_done_text', { date: formatDateTime(finished_at), name: requested_by?.name ?? '' }) : t('admin_users.delete_running_text')}
          </p>
        </div>
      </div>
      <Counts title={done ? t('admin_users.delete_removed') : t('admin_users.delete_removed_so_far')} counts={counts} />
      {done && (
        <a href="/admin/users" className="btn-secondary mt-6">
          {t('admin_users.delete_back_to_users')}
        </a>
      )}
    </section>
  );
}

function Counts({ title, counts }: { title: string; counts: [string, string][] }) {
  return (
    <div className="mt-6">
      <h3 className="mb-2 text-sm font-semibold text-muted">{title}</h3>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" data-testid="deletion-counts">
        {counts.map(([label, value]) => (
          <div key={label} className="rounded-control bg-surface-2 px-4 py-3">
            <dt className="text-sm text-muted">{label}</dt>
            <dd className="mt-0.5 text-xl font-bold tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
