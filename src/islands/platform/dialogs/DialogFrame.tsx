import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { closeDialog, restoreFocus } from '../../../stores/dialogs.ts';

/** The frame every platform dialog shares: backdrop, centred card, title, Escape and backdrop close. */
export function DialogFrame({ title, description, children, onOpenAutoFocus }: { title: string; description?: string; children: ReactNode; onOpenAutoFocus?: (e: Event) => void }) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && closeDialog()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-backdrop" />
        <Dialog.Content
          onOpenAutoFocus={onOpenAutoFocus}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            restoreFocus();
          }}
          className="card fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto p-6 md:w-[490px]"
        >
          <Dialog.Title className="text-xl font-bold tracking-tight">{title}</Dialog.Title>
          {description ? <Dialog.Description className="mt-1.5 text-[15px] text-muted">{description}</Dialog.Description> : <Dialog.Description className="sr-only">{title}</Dialog.Description>}
          <div className="mt-5">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function DialogButtons({ cancel, submit, busy, danger }: { cancel: string; submit: string; busy?: boolean; danger?: boolean }) {
  return (
    <div className="mt-6 flex justify-end gap-2">
      <button type="button" className="btn-secondary" onClick={closeDialog}>
        {cancel}
      </button>
      <button type="submit" className={danger ? 'btn-danger' : 'btn-primary'} disabled={busy}>
        {submit}
      </button>
    </div>
  );
}
