import { ContextMenu } from 'radix-ui';
import type { ReactNode } from 'react';
import { actionsFor, runAction, type ActionContext } from './actions.ts';

/** Right-click (or long-press on touch) menu over an item, built from the shared action list. */
export function ItemContextMenu({ context, onOpen, children }: { context: () => ActionContext; onOpen: () => void; children: ReactNode }) {
  return (
    <ContextMenu.Root onOpenChange={(open) => open && onOpen()}>
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
  return (
    // Escape closes the menu alone: the file area's own Escape would clear the selection as well.
    <ContextMenu.Content className="card z-50 min-w-[200px] p-1.5 shadow-xl" data-testid="item-menu" onEscapeKeyDown={(event) => event.stopPropagation()}>
      {actions.map((action) => (
        <ContextMenu.Item
          key={action.id}
          onSelect={() => void runAction(action, ctx)}
          className={`flex cursor-default items-center gap-3 rounded-lg px-3 py-2 text-sm outline-none select-none data-[highlighted]:bg-surface-2 ${action.danger ? 'text-danger' : 'text-text'}`}
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
