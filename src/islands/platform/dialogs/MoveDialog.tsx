import { useStore } from '@nanostores/react';
import { ChevronRight, House } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Emoji } from '../../../components/pickers/Emoji.tsx';
import { closeDialog } from '../../../stores/dialogs.ts';
import { $listing, emojiChar, loadTree, type Item, type TreeNode } from '../../../stores/files.ts';
import { $tree, loadTreeChildren, withFolders } from '../../../stores/tree.ts';
import { loadTeamTree, loadTeamTreeChildren } from '../../../stores/teams.ts';
import { useT } from '../../../stores/i18n.ts';
import { moveWithFeedback } from '../actions.ts';
import { DialogButtons, DialogFrame } from './DialogFrame.tsx';

/** Move via a folder picker: the folders being moved (and everything inside them) cannot be chosen. */
export function MoveDialog({ items }: { items: Item[] }) {
  const t = useT();
  const ownTree = useStore($tree);
  const listing = useStore($listing);
  // A member moves inside the team folder only: its tree, not mine, and no home to move to.
  const team = listing?.source.kind === 'shared' ? listing.team : null;
  const [teamTree, setTeamTree] = useState<TreeNode[] | null>(null);
  const tree = team ? teamTree : ownTree;
  const [target, setTarget] = useState<string | null>(team ? team.folder_id : null);
  const moving = new Set(items.filter((i) => i.type === 'folder').map((i) => i.id));
  const parents = new Set(items.map((i) => i.attributes.parent_id ?? null));
  useEffect(() => {
    if (!team) return void loadTree();
    const name = team.name ?? listing?.root?.attributes.name ?? '';
    loadTeamTree(team.folder_id, name)
      .then(setTeamTree)
      .catch(() => setTeamTree([{ id: team.folder_id, name, color: null, emoji: null, parent_id: null, folders: [], has_folders: false }]));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Subfolders come a level at a time: a branch opened for the first time asks for its own.
  const loadChildren = async (id: string) => {
    if (!team) return loadTreeChildren(id);
    const folders = await loadTeamTreeChildren(team.folder_id, id);
    setTeamTree((prev) => prev && withFolders(prev, id, folders));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    closeDialog();
    await moveWithFeedback(items, target);
  };
  const unchanged = parents.size === 1 && parents.has(target);

  return (
    <DialogFrame title={t('files.move_title', { count: items.length })} description={t('files.move_text')}>
      <form onSubmit={(e) => void submit(e)}>
        <div role="radiogroup" aria-label={t('files.move_target')} className="max-h-[50dvh] overflow-y-auto rounded-control border border-border p-1.5 text-sm">
          {!team && <Choice id={null} label={t('locations.home')} icon={<House className="size-[18px] text-brand" aria-hidden />} depth={0} target={target} setTarget={setTarget} disabled={false} />}
          {tree?.map((node) => <Branch key={node.id} node={node} depth={team ? 0 : 1} target={target} setTarget={setTarget} moving={moving} blocked={false} loadChildren={loadChildren} />)}
        </div>
        {unchanged && <p className="mt-2 text-sm text-muted">{t('files.move_same_place')}</p>}
        <DialogButtons cancel={t('actions.cancel')} submit={t('files.move_here')} busy={unchanged} />
      </form>
    </DialogFrame>
  );
}

interface BranchProps {
  node: TreeNode;
  depth: number;
  target: string | null;
  setTarget: (id: string | null) => void;
  moving: Set<string>;
  blocked: boolean;
  loadChildren: (id: string) => Promise<void>;
}

function Branch({ node, depth, target, setTarget, moving, blocked, loadChildren }: BranchProps) {
  // Open to start with where the tree already holds the subfolders (the top, the open folder's branch).
  const [open, setOpen] = useState(depth < 2 && node.folders.length > 0);
  const disabled = blocked || moving.has(node.id);
  const onToggle = () => {
    if (!open && node.has_folders && node.folders.length === 0) void loadChildren(node.id).catch(() => setOpen(false));
    setOpen(!open);
  };
  return (
    <>
      <Choice
        id={node.id}
        label={node.name}
        depth={depth}
        target={target}
        setTarget={setTarget}
        disabled={disabled}
        icon={emojiChar(node.emoji) ? <Emoji value={node.emoji} className="w-[18px] text-center" /> : <FolderSvg color={node.color} />}
        toggle={node.has_folders || node.folders.length > 0 ? { open, onToggle } : undefined}
      />
      {open && node.folders.map((child) => <Branch key={child.id} node={child} depth={depth + 1} target={target} setTarget={setTarget} moving={moving} blocked={disabled} loadChildren={loadChildren} />)}
    </>
  );
}

function FolderSvg({ color }: { color: string | null }) {
  return (
    <svg viewBox="0 0 24 24" className="size-[18px] shrink-0" aria-hidden style={{ color: color ?? 'var(--brand)' }}>
      <path d="M3 6.5A1.5 1.5 0 0 1 4.5 5h4.4l2 2h8.6A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" fill="currentColor" />
    </svg>
  );
}

function Choice(props: { id: string | null; label: string; icon: React.ReactNode; depth: number; target: string | null; setTarget: (id: string | null) => void; disabled: boolean; toggle?: { open: boolean; onToggle: () => void } | undefined }) {
  const { id, label, icon, depth, target, setTarget, disabled, toggle } = props;
  const checked = target === id;
  return (
    <div className="flex items-center" style={{ paddingLeft: depth * 14 }}>
      {toggle ? (
        <button type="button" onClick={toggle.onToggle} className="rounded p-0.5 text-muted hover:text-text" aria-label={label} tabIndex={-1}>
          <ChevronRight className={`size-3.5 transition-transform ${toggle.open ? 'rotate-90' : ''}`} aria-hidden />
        </button>
      ) : (
        <span className="w-[18px]" />
      )}
      <button
        type="button"
        role="radio"
        aria-checked={checked}
        disabled={disabled}
        onClick={() => setTarget(id)}
        className={`flex min-w-0 flex-1 items-center gap-2 rounded-lg px-2 py-1.5 text-left disabled:cursor-not-allowed disabled:opacity-40 ${checked ? 'bg-brand text-on-brand' : 'hover:bg-surface-2'}`}
      >
        {icon}
        <span className="truncate">{label}</span>
      </button>
    </div>
  );
}
