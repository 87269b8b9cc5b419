import { UserPlus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useT } from '../../../stores/i18n.ts';
import { inviteLimitReached, isEmail, TEAM_PERMISSIONS, type InvitationInput, type TeamPermission } from '../../../stores/teams.ts';

/**
 * An email and a permission, added with a button (or Enter). Checks the address and the member limit
 * (SPEC §5) before `onInvite`; `taken` are the emails already invited to this team. Used inside
 * other forms, so it is a group, not a form of its own.
 */
export function InviteForm({ taken, onInvite, busy = false }: { taken: string[]; onInvite: (invitation: InvitationInput) => Promise<void> | void; busy?: boolean }) {
  const t = useT();
  const id = useId();
  const [email, setEmail] = useState('');
  const [permission, setPermission] = useState<TeamPermission>('can_edit');
  const [error, setError] = useState('');

  const add = async (event?: FormEvent) => {
    event?.preventDefault();
    const value = email.trim();
    if (!isEmail(value)) return setError(t('teams.email_invalid'));
    if (taken.some((e) => e.toLowerCase() === value.toLowerCase())) return setError(t('teams.already_invited'));
    if (inviteLimitReached(value, taken)) return setError(t('teams.limit_reached'));
    setError('');
    try {
      await onInvite({ email: value, permission });
      setEmail('');
    } catch (err) {
      setError(err instanceof Error ? err.message : t('popup_error.message'));
    }
  };

  return (
    <div role="group" aria-labelledby={`${id}-label`} className="mb-2">
      <p id={`${id}-label`} className="label">
        {t('teams.invite_member')}
      </p>
      <div className="flex flex-wrap items-start gap-2">
        <input
          id={`${id}-email`}
          type="email"
          className="input min-w-0 flex-1 basis-48"
          placeholder={t('teams.email_placeholder')}
          aria-label={t('teams.member_email')}
          value={email}
          maxLength={255}
          autoComplete="off"
          onChange={(e) => setEmail(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            void add();
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <select className="input w-auto" aria-label={t('teams.permission')} value={permission} onChange={(e) => setPermission(e.target.value as TeamPermission)}>
          {TEAM_PERMISSIONS.map((p) => (
            <option key={p} value={p}>
              {t(`teams.${p}`)}
            </option>
          ))}
        </select>
        <button type="button" className="btn-secondary" onClick={() => void add()} disabled={busy}>
          <UserPlus className="size-4" aria-hidden />
          {t('teams.invite')}
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
