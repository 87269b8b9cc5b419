import { X } from 'lucide-react';
import { useState } from 'react';
import { closeDialog } from '../../../stores/dialogs.ts';
import { loadTree, type Item } from '../../../stores/files.ts';
import { useT } from '../../../stores/i18n.ts';
import { openPage, $router } from '../../../stores/router.ts';
import { convertToTeamFolder, createTeamFolder, type InvitationInput } from '../../../stores/teams.ts';
import { toast } from '../../../stores/ui.ts';
import { DialogFrame } from '../dialogs/DialogFrame.tsx';
import { NameForm } from '../dialogs/NameForm.tsx';
import { InviteForm } from './InviteForm.tsx';

/** The invitations gathered before the team exists, each removable. */
function PendingInvitations({ list, onRemove }: { list: InvitationInput[]; onRemove: (email: string) => void }) {
  const t = useT();
  if (!list.length) return <p className="mb-2 text-sm text-muted">{t('teams.no_invitations_yet')}</p>;
  return (
    <ul className="mb-2 flex flex-col gap-1" aria-label={t('teams.to_invite')}>
      {list.map((inv) => (
        <li key={inv.email} className="flex items-center gap-2 rounded-control bg-surface-2 px-3 py-1.5 text-sm">
          <span className="min-w-0 flex-1 truncate">{inv.email}</span>
          <span className="text-xs text-muted">{t(`teams.${inv.permission}`)}</span>
          <button type="button" className="rounded-md p-1 text-muted hover:text-text" aria-label={t('teams.remove_invitation_named', { email: inv.email })} onClick={() => onRemove(inv.email)}>
            <X className="size-4" aria-hidden />
          </button>
        </li>
      ))}
    </ul>
  );
}

function useInvitations() {
  const [list, setList] = useState<InvitationInput[]>([]);
  const fields = (
    <>
      <InviteForm taken={list.map((i) => i.email)} onInvite={(inv) => setList((prev) => [...prev, inv])} />
      <PendingInvitations list={list} onRemove={(email) => setList((prev) => prev.filter((i) => i.email !== email))} />
    </>
  );
  return { list, fields };
}

async function opened(folder: Item, message: string): Promise<void> {
  toast('success', message);
  await loadTree();
  openPage($router, 'teamFolders', { id: folder.id });
}

/** A new team folder: its name and the first invitations. */
export function CreateTeamDialog({ parentId }: { parentId: string | null }) {
  const t = useT();
  const invitations = useInvitations();
  return (
    <DialogFrame title={t('teams.create_title')} description={t('teams.create_text')} onOpenAutoFocus={(e) => e.preventDefault()}>
      <NameForm initial={t('teams.default_name')} submitLabel={t('actions.create')} onSubmit={async (name) => opened(await createTeamFolder(name, parentId, invitations.list), t('teams.created'))}>
        <div className="mt-4">{invitations.fields}</div>
      </NameForm>
    </DialogFrame>
  );
}

/** One of my folders made a team folder, with its first invitations. */
export function ConvertTeamDialog({ folder }: { folder: Item }) {
  const t = useT();
  const invitations = useInvitations();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  return (
    <DialogFrame title={t('teams.convert_title', { name: folder.attributes.name })} description={t('teams.convert_text')}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          setError('');
          convertToTeamFolder(folder.id, invitations.list)
            .then((converted) => {
              closeDialog();
              return opened(converted ?? folder, t('teams.converted'));
            })
            .catch((err: unknown) => setError(err instanceof Error ? err.message : t('popup_error.message')))
            .finally(() => setBusy(false));
        }}
      >
        {invitations.fields}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="mt-6 flex justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={closeDialog}>
            {t('actions.cancel')}
          </button>
          <button type="submit" className="btn-primary" disabled={busy}>
            {t('teams.convert')}
          </button>
        </div>
      </form>
    </DialogFrame>
  );
}
