import { useStore } from '@nanostores/react';
import { Dialog } from 'radix-ui';
import { $alert, closeAlert } from '../../stores/ui.ts';
import { useT } from '../../stores/i18n.ts';

/**
 * The alert and success popups (SPEC §8): title, message, optional emoji, button text and style.
 * Without a button text the alert says "That’s horrible!" and the success popup "Awesome!".
 * Escape and a click on the dimmed backdrop close it.
 */
export function AlertPopup() {
  const alert = useStore($alert);
  const t = useT();
  const fallback = alert?.kind === 'success' ? t('alerts.success_confirm') : t('alerts.error_confirm');
  const buttonClass = alert?.buttonStyle === 'danger' || (alert?.kind === 'alert' && !alert.buttonStyle) ? 'btn-danger' : 'btn-primary';
  return (
    <Dialog.Root open={alert !== null} onOpenChange={(open) => !open && closeAlert()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-backdrop" data-testid="backdrop" />
        <Dialog.Content className="card fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 p-7 text-center md:w-[490px]">
          <div className="mb-4 text-4xl" aria-hidden>
            {alert?.emoji ?? (alert?.kind === 'success' ? '🎉' : '😢')}
          </div>
          <Dialog.Title className="text-xl font-bold tracking-tight">{alert?.title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-[15px] text-muted">{alert?.message}</Dialog.Description>
          <Dialog.Close asChild>
            <button type="button" className={`${buttonClass} mt-6 w-full`}>
              {alert?.buttonText ?? fallback}
            </button>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
