import { ContextMenu } from 'radix-ui';
import { useEffect, useRef, type ReactNode } from 'react';
import { rememberMenuOpener, restoreMenuFocus } from '../../stores/dialogs.ts';
import { actionsFor, runAction, type ActionContext } from './actions.ts';

let openedByKeyboard = false;

/**
 * Opens the context menu of `element` (an item's trigger) from the keyboard (Shift+F10 or the menu
 * key): a contextmenu event at the item's position, as a right-click there would send. The menu then
 * starts on its first entry, where a pointer-opened menu highlights nothing.
 */
export function openContextMenuFromKeyboard(element: HTMLElement): void {
  const box = element.getBoundingClientRect();
  openedByKeyboard = true;
  const event = new MouseEvent('contextmenu', { bubbles: true, cancelable: true, clientX: box.left + Math.min(48, box.width / 2), clientY: box.top + box.height / 2 });
  element.dispatchEvent(event);
  if (!event.defaultPrevented) openedByKeyboard = false;
}

/** Right-click (or long-press on touch, or Shift+F10) menu over an item, built from the shared action list. */
export function ItemContextMenu({ context, onOpen, children }: { context: () => ActionContext; onOpen: () => void; children: ReactNode }) {
  return (
    // Not modal: a modal menu hides the page with aria-hidden while its links stay focusable, and
    // outside clicks close it either way.
    <ContextMenu.Root
      modal={false}
      onOpenChange={(open) => {
        if (!open) return;
        rememberMenuOpener();
        onOpen();
      }}
    >
      <ContextMenu.Trigger asChild>{children}</ContextMenu.Trigger>
      <ContextMenu.Portal>
        <MenuContent context={context} />
      </ContextMenu.Portal>
    </ContextMenu.Root>
  );
}

function MenuContent({ context }: { context: () => ActionContext }) {
  const ctx = context();
  const actions = actionsFor(ctx);
  const content = useRef<HTMLDivElement>(null);
  // Runs after Radix has focused the menu itself (its effects are deeper, so earlier).
  useEffect(() => {
    if (!openedByKeyboard) return;
    openedByKeyboard = false;
    content.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus();
  }, []);
  return (
    // Escape closes the menu alone: the file area's own Escape would clear the selection as well.
    <ContextMenu.Content
      ref={content}
      className="card z-50 min-w-[200px] p-1.5 shadow-xl"
      data-testid="item-menu"
      onEscapeKeyDown={(event) => event.stopPropagation()}
      onCloseAutoFocus={(event) => {
        // Back to the item's list (or tree item); a dialog the menu opened keeps its own focus.
        event.preventDefault();
        restoreMenuFocus();
      }}
    >
      {actions.map((action) => (
        <ContextMenu.Item
          key={action.id}
          onSelect={() => void runAction(action, ctx)}
          className={`flex cursor-default items-center gap-3 rounded-lg px-3 py-2 text-sm outline-none select-none data-[highlighted]:bg-surface-2 focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-ring ${action.danger ? 'text-danger' : 'text-text'}`}
        >
          <action.Icon className="size-4" aria-hidden />
          <span className="flex-1">{action.label(ctx)}</span>
          {/* Key hints mean nothing on a touch screen. */}
          {action.shortcut && <span className="text-xs text-muted pointer-coarse:hidden" data-testid="shortcut">{action.shortcut}</span>}
        </ContextMenu.Item>
      ))}
    </ContextMenu.Content>
  );
}
