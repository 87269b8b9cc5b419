import { ChevronRight } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Emoji } from '../../components/pickers/Emoji.tsx';
import { emojiChar, type TreeNode } from '../../stores/files.ts';
import { loadTreeChildren, pathTo } from '../../stores/tree.ts';
import { moveWithFeedback, treeNodeItem } from './actions.ts';
import { dropTarget } from './dnd.ts';
import { ItemContextMenu, openContextMenuFromKeyboard } from './ItemContextMenu.tsx';

interface Visible {
  node: TreeNode;
  parentId: string | null;
  depth: number;
  /** Its place among its siblings (1-based) and how many they are, for aria-posinset and aria-setsize. */
  position: number;
  siblings: number;
}

/** The folders shown now, top to bottom: a collapsed folder hides its subfolders. */
function visibleNodes(nodes: TreeNode[], expanded: Set<string>, parentId: string | null = null, depth = 0, out: Visible[] = []): Visible[] {
  nodes.forEach((node, i) => {
    out.push({ node, parentId, depth, position: i + 1, siblings: nodes.length });
    if (expanded.has(node.id)) visibleNodes(node.folders, expanded, node.id, depth + 1, out);
  });
  return out;
}

/**
 * The folder tree of the navigation panel, as the WAI-ARIA tree pattern has it: one tab stop (the
 * open folder, else the last one visited, else the first), Up and Down move, Right and Left expand,
 * collapse or go to a child or the parent, Home and End jump, Enter opens, Shift+F10 the menu.
 * Subfolders come from the server on the first expand (the tree is answered a level at a time):
 * the row says aria-busy while they load.
 */
export function FolderTree({ tree, openId, favourites, labelledBy }: { tree: TreeNode[]; openId: string | undefined; favourites: Set<string>; labelledBy: string }) {
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const [activeId, setActiveId] = useState<string | null>(null);
  const root = useRef<HTMLUListElement>(null);

  // The branches down to the open folder open with it (also when the tree arrives after the listing).
  useEffect(() => {
    if (!openId) return;
    const trail = pathTo(tree, openId).slice(0, -1);
    setExpanded((prev) => (trail.every((n) => prev.has(n.id)) ? prev : new Set([...prev, ...trail.map((n) => n.id)])));
  }, [tree, openId]);

  const visible = visibleNodes(tree, expanded);
  const has = (id: string | null | undefined) => !!id && visible.some((v) => v.node.id === id);
  const tabStop = has(activeId) ? activeId : has(openId) ? openId! : (visible[0]?.node.id ?? null);

  const [loading, setLoading] = useState<Set<string>>(() => new Set());
  const setIn = (set: typeof setExpanded, id: string, on: boolean) =>
    set((prev) => {
      if (prev.has(id) === on) return prev;
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  // A branch whose subfolders the tree does not hold yet opens once they arrived, so an expanded
  // row always shows its children (Right then goes into them at once).
  const toggle = (id: string, open: boolean) => {
    const node = open ? visible.find((v) => v.node.id === id)?.node : undefined;
    if (!node?.has_folders || node.folders.length > 0) return setIn(setExpanded, id, open);
    if (loading.has(id)) return;
    setIn(setLoading, id, true);
    void loadTreeChildren(id)
      .then(() => setIn(setExpanded, id, true))
      .catch(() => undefined)
      .finally(() => setIn(setLoading, id, false));
  };
  const focusNode = (id: string | null | undefined) => {
    if (!id) return;
    setActiveId(id);
    root.current?.querySelector<HTMLElement>(`[data-node-id="${CSS.escape(id)}"]`)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const li = (event.target as HTMLElement).closest<HTMLElement>('[role=treeitem]');
    const index = visible.findIndex((v) => v.node.id === li?.dataset.nodeId);
    const current = visible[index];
    if (!li || !current) return;
    const { node } = current;
    const link = li.querySelector<HTMLAnchorElement>(':scope > div a');
    let handled = true;
    if (event.key === 'ArrowDown') focusNode(visible[index + 1]?.node.id);
    else if (event.key === 'ArrowUp') focusNode(visible[index - 1]?.node.id);
    else if (event.key === 'Home') focusNode(visible[0]?.node.id);
    else if (event.key === 'End') focusNode(visible.at(-1)?.node.id);
    else if (event.key === 'ArrowRight') {
      if (hasFolders(node) && !expanded.has(node.id)) toggle(node.id, true);
      else if (node.folders.length) focusNode(node.folders[0]!.id);
    } else if (event.key === 'ArrowLeft') {
      if (expanded.has(node.id)) toggle(node.id, false);
      else focusNode(current.parentId);
    } else if (event.key === 'Enter') link?.click();
    else if ((event.key === 'F10' && event.shiftKey) || event.key === 'ContextMenu') {
      if (link) openContextMenuFromKeyboard(link);
    } else handled = false;
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
    }
  };

  return (
    <ul
      ref={root}
      role="tree"
      aria-labelledby={labelledBy}
      onKeyDown={onKeyDown}
      onFocus={(event) => {
        const id = (event.target as HTMLElement).closest<HTMLElement>('[role=treeitem]')?.dataset.nodeId;
        if (id) setActiveId(id);
      }}
    >
      {visible.map((row) => (
        <TreeRow key={row.node.id} row={row} openId={openId} favourites={favourites} open={expanded.has(row.node.id)} loading={loading.has(row.node.id)} tabStop={tabStop} toggle={toggle} />
      ))}
    </ul>
  );
}

interface RowProps {
  row: Visible;
  openId: string | undefined;
  favourites: Set<string>;
  open: boolean;
  loading: boolean;
  tabStop: string | null;
  toggle: (id: string, open: boolean) => void;
}

/**
 * One folder of the tree. The rows are siblings, their nesting told by aria-level, aria-setsize and
 * aria-posinset (the flat form of the ARIA tree): an open folder does not hold its subfolders, so
 * each item's text is its own name.
 */
function TreeRow({ row, openId, favourites, open, loading, tabStop, toggle }: RowProps) {
  const { node, depth } = row;
  const [over, setOver] = useState(false);
  const drop = dropTarget(node.id, (items, to) => void moveWithFeedback(items, to), setOver);
  return (
    <li
      role="treeitem"
      data-node-id={node.id}
      tabIndex={tabStop === node.id ? 0 : -1}
      aria-labelledby={`tree-${node.id}-name`}
      aria-level={depth + 1}
      aria-setsize={row.siblings}
      aria-posinset={row.position}
      aria-expanded={hasFolders(node) ? open : undefined}
      aria-busy={loading || undefined}
      aria-selected={openId === node.id}
      // The row shows the focus ring.
      className="outline-none [&:focus-visible>div]:outline-2 [&:focus-visible>div]:outline-ring"
    >
      <div className="flex items-center rounded-lg" style={{ paddingLeft: depth * 14 }}>
        {hasFolders(node) ? (
          // A pointer target only: from the keyboard, Right and Left expand and collapse.
          <span onClick={() => toggle(node.id, !open)} className="cursor-pointer rounded p-0.5 text-muted hover:text-text" aria-hidden>
            <ChevronRight className={`size-3.5 transition-transform ${open ? 'rotate-90' : ''}`} />
          </span>
        ) : (
          <span className="w-[18px]" />
        )}
        <ItemContextMenu context={() => ({ source: { kind: 'folder', id: openId ?? null }, items: [treeNodeItem(node)], favourites })} onOpen={() => undefined}>
          <a
            href={`/platform/files/${node.id}`}
            tabIndex={-1}
            {...drop}
            className={`flex min-w-0 flex-1 items-center gap-2 rounded-lg px-1.5 py-1.5 outline-none ${over ? 'bg-brand-soft ring-2 ring-brand' : openId === node.id ? 'bg-brand-soft text-brand' : 'hover:bg-surface-2'}`}
          >
            <FolderGlyph node={node} />
            <span id={`tree-${node.id}-name`} className="truncate">
              {node.name}
            </span>
          </a>
        </ItemContextMenu>
      </div>
    </li>
  );
}

/** Whether the folder holds subfolders, loaded yet or not. */
function hasFolders(node: TreeNode): boolean {
  return node.has_folders || node.folders.length > 0;
}

export function FolderGlyph({ node }: { node: { color: string | null; emoji: unknown } }) {
  if (emojiChar(node.emoji)) return <Emoji value={node.emoji} className="w-[18px] shrink-0 text-center" />;
  return (
    <svg viewBox="0 0 24 24" className="size-[18px] shrink-0" aria-hidden style={{ color: node.color ?? 'var(--brand)' }}>
      <path d="M3 6.5A1.5 1.5 0 0 1 4.5 5h4.4l2 2h8.6A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" fill="currentColor" />
    </svg>
  );
}
