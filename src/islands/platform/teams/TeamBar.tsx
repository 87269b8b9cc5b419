import { useStore } from '@nanostores/react';
import { LogOut, Users } from 'lucide-react';
import { Avatar } from '../../../components/Avatar.tsx';
import { openDialog } from '../../../stores/dialogs.ts';
import type { Listing } from '../../../stores/files.ts';
import { t as translate, useT } from '../../../stores/i18n.ts';
import { $router, openPage } from '../../../stores/router.ts';
import { leaveTeam, myPermission, type TeamMeta } from '../../../stores/teams.ts';
import { toast } from '../../../stores/ui.ts';
import { $user } from '../../../stores/user.ts';

const SHOWN = 5;

interface Person {
  id: string;
  name: string;
  email: string;
  color: string | null;
  avatar: { xs: string; sm: string; md: string } | null;
}

/** Asks before leaving a team I am a member of (SPEC §8 really_leave_team). */
export function confirmLeave(folderId: string, name: string): void {
  openDialog({
    kind: 'confirm',
    title: translate('teams.leave_title', { name }),
    message: translate('teams.really_leave_team'),
    confirm: translate('teams.leave'),
    danger: true,
    run: async () => {
      await leaveTeam(folderId);
      toast('success', translate('teams.left'));
      openPage($router, 'sharedWithMe');
    },
  });
}

/**
 * The team of the open team folder above its items: who is in it (avatars on their colours), my
 * permission, and the owner's members button or the member's leave button.
 */
export function TeamBar({ listing, team }: { listing: Listing; team: TeamMeta }) {
  const t = useT();
  const owner = listing.source.kind === 'team';
  const permission = myPermission(team, owner ? 'team' : 'shared');
  const name = team.name ?? listing.root?.attributes.name ?? '';
  const me = useStore($user);
  // The owner sees the members and themself; a member sees the owner.
  const people: Person[] = owner
    ? [...(me ? [{ id: me.id, name: me.attributes.name, email: me.attributes.email, color: me.attributes.color, avatar: me.attributes.avatar }] : []), ...(team.members ?? [])]
    : team.owner
      ? [team.owner]
      : [];
  const extra = people.length - SHOWN;
  return (
    <div className="mb-4 flex flex-wrap items-center gap-3 rounded-card border border-border bg-surface px-4 py-2.5" data-testid="team-bar">
      <ul className="flex -space-x-2" aria-label={t('teams.members')}>
        {people.slice(0, SHOWN).map((m) => (
          <li key={m.id} title={`${m.name} (${m.email})`} className="rounded-lg ring-2 ring-surface">
            <Avatar size={28} name={m.name} email={m.email} color={m.color} avatar={m.avatar} />
            <span className="sr-only">{m.name}</span>
          </li>
        ))}
        {extra > 0 && <li className="flex size-7 items-center justify-center rounded-lg bg-surface-2 text-xs font-semibold ring-2 ring-surface">+{extra}</li>}
      </ul>
      <p className="min-w-0 flex-1 text-sm text-muted">
        {owner ? t('teams.member_count', { count: people.length }) : team.owner ? t('teams.owned_by', { name: team.owner.name }) : ''}
        {' · '}
        <span data-testid="my-permission">{t(`teams.${permission}`)}</span>
      </p>
      {owner ? (
        <button type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={() => openDialog({ kind: 'team-members' })}>
          <Users className="size-4" aria-hidden />
          {t('teams.manage_members')}
        </button>
      ) : (
        <button type="button" className="btn-secondary px-3 py-1.5 text-sm text-danger" onClick={() => confirmLeave(team.folder_id, name)}>
          <LogOut className="size-4" aria-hidden />
          {t('teams.leave')}
        </button>
      )}
    </div>
  );
}
