import { useStore } from '@nanostores/react';
import { UserMinus, Users, X } from 'lucide-react';
import { useState } from 'react';
import { Avatar } from '../../../components/Avatar.tsx';
import { ApiError } from '../../../stores/api.ts';
import { formatDateTime } from '../../../stores/dates.ts';
import { closeDialog, openDialog } from '../../../stores/dialogs.ts';
import { $listing, loadTree, refreshListing } from '../../../stores/files.ts';
import { t as translate, useT } from '../../../stores/i18n.ts';
import { $router, openPage } from '../../../stores/router.ts';
import { changeMemberPermission, dissolveTeam, inviteMember, removeMember, revokeInvitation, TEAM_PERMISSIONS, type TeamMeta, type TeamPermission } from '../../../stores/teams.ts';
import { toast } from '../../../stores/ui.ts';
import { $user } from '../../../stores/user.ts';
import { DialogFrame } from '../dialogs/DialogFrame.tsx';
import { InviteForm } from './InviteForm.tsx';

/** Asks before dissolving: members lose access, the folder stays the owner's (SPEC §8 really_dissolve_team). */
export function confirmDissolve(team: TeamMeta, name: string): void {
  openDialog({
    kind: 'confirm',
    title: translate('teams.dissolve_title', { name }),
    message: translate('teams.really_dissolve_team'),
    confirm: translate('teams.dissolve'),
    danger: true,
    run: async () => {
      await dissolveTeam(team.folder_id);
      toast('success', translate('teams.dissolved'));
      await loadTree();
      openPage($router, 'teamFolders');
    },
  });
}

/**
 * The owner's members panel for the open team folder: invite by email, change a member's
 * permission, remove a member, revoke a pending invitation, dissolve the team.
 */
export function TeamMembersDialog() {
  const t = useT();
  const listing = useStore($listing);
  const team = listing?.team ?? null;
  const me = useStore($user);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const name = team?.name ?? listing?.root?.attributes.name ?? '';

  const run = async (change: () => Promise<void>, done?: string) => {
    setBusy(true);
    setError('');
    try {
      await change();
      await refreshListing();
      if (done) toast('success', done);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('popup_error.message'));
    } finally {
      setBusy(false);
    }
  };

  if (!team) return null;
  const members = team.members ?? [];
  const pending = (team.invitations ?? []).filter((i) => i.status === 'pending');
  const taken = pending.map((i) => i.email).concat(members.map((m) => m.email));

  return (
    <DialogFrame title={t('teams.members_title', { name })} description={t('teams.members_text')}>
      <InviteForm
        taken={taken}
        busy={busy}
        onInvite={async (invitation) => {
          // A refusal (the member limit, a bad address) is shown under the field by InviteForm.
          await inviteMember(team.folder_id, invitation);
          await refreshListing();
          toast('success', t('teams.invited', { email: invitation.email }));
        }}
      />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}

      <h3 className="mt-5 mb-2 text-sm font-semibold">{t('teams.members')}</h3>
      <ul className="flex flex-col divide-y divide-border rounded-control border border-border" data-testid="team-members">
        {me && (
          <li className="flex flex-wrap items-center gap-3 px-3 py-2.5" data-testid="team-member">
            <Avatar size={36} name={me.attributes.name} email={me.attributes.email} color={me.attributes.color} avatar={me.attributes.avatar} />
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-semibold">{me.attributes.name}</p>
              <p className="truncate text-xs text-muted">{me.attributes.email}</p>
            </div>
            <span className="rounded-full bg-brand-soft px-2.5 py-0.5 text-xs font-semibold text-brand">{t('teams.master')}</span>
          </li>
        )}
        {members.map((member) => (
          <li key={member.id} className="flex flex-wrap items-center gap-3 px-3 py-2.5" data-testid="team-member">
            <Avatar size={36} name={member.name} email={member.email} color={member.color} avatar={member.avatar} />
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-semibold">{member.name}</p>
              <p className="truncate text-xs text-muted">{member.email}</p>
            </div>
            {member.permission === 'master' ? (
              <span className="rounded-full bg-brand-soft px-2.5 py-0.5 text-xs font-semibold text-brand">{t('teams.master')}</span>
            ) : (
              <>
                <select
                  className="input w-auto py-1.5 text-sm"
                  aria-label={t('teams.permission_of', { name: member.name })}
                  value={member.permission}
                  disabled={busy}
                  onChange={(e) => void run(() => changeMemberPermission(team.folder_id, member.id, e.target.value as TeamPermission), t('teams.permission_changed'))}
                >
                  {TEAM_PERMISSIONS.map((p) => (
                    <option key={p} value={p}>
                      {t(`teams.${p}`)}
                    </option>
                  ))}
                </select>
                <button
                  type="button"
                  className="rounded-control p-2 text-danger hover:bg-danger/10"
                  aria-label={t('teams.remove_member_named', { name: member.name })}
                  title={t('teams.remove_member')}
                  disabled={busy}
                  onClick={() => void run(() => removeMember(team.folder_id, member.id), t('teams.member_removed'))}
                >
                  <UserMinus className="size-4" aria-hidden />
                </button>
              </>
            )}
          </li>
        ))}
      </ul>

      {pending.length > 0 && (
        <>
          <h3 className="mt-5 mb-2 text-sm font-semibold">{t('teams.pending_invitations')}</h3>
          <ul className="flex flex-col divide-y divide-border rounded-control border border-border" data-testid="team-invitations">
            {pending.map((invitation) => (
              <li key={invitation.id} className="flex items-center gap-3 px-3 py-2.5">
                <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-surface-2 text-muted">
                  <Users className="size-4" aria-hidden />
                </span>
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">{invitation.email}</p>
                  <p className="truncate text-xs text-muted">
                    {t(`teams.${invitation.permission}`)}
                    {invitation.expires_at ? ` · ${t('teams.expires', { date: formatDateTime(invitation.expires_at) })}` : ''}
                  </p>
                </div>
                <button
                  type="button"
                  className="rounded-control p-2 text-muted hover:bg-surface-2 hover:text-text"
                  aria-label={t('teams.revoke_named', { email: invitation.email })}
                  title={t('teams.revoke')}
                  disabled={busy}
                  onClick={() => void run(() => revokeInvitation(team.folder_id, invitation.id), t('teams.revoked'))}
                >
                  <X className="size-4" aria-hidden />
                </button>
              </li>
            ))}
          </ul>
        </>
      )}

      <div className="mt-6 flex flex-wrap justify-between gap-2">
        <button type="button" className="btn-secondary text-danger" onClick={() => confirmDissolve(team, name)}>
          {t('teams.dissolve')}
        </button>
        <button type="button" className="btn-primary" onClick={closeDialog}>
          {t('teams.done')}
        </button>
      </div>
    </DialogFrame>
  );
}
