import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../stores/api.ts';
import { closeDialog } from '../../../stores/dialogs.ts';
import { useT } from '../../../stores/i18n.ts';
import { showAlert } from '../../../stores/ui.ts';
import { DialogButtons, DialogFrame } from './DialogFrame.tsx';

export function ConfirmDialog({ title, message, confirm, danger, run }: { title: string; message: string; confirm: string; danger?: boolean | undefined; run: () => Promise<void> }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await run();
      closeDialog();
    } catch (error) {
      closeDialog();
      showAlert({ title: t('popup_error.title'), message: error instanceof ApiError ? error.message : t('popup_error.message') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <DialogFrame title={title} description={message}>
      <form onSubmit={(e) => void submit(e)}>
        <DialogButtons cancel={t('actions.cancel')} submit={confirm} busy={busy} danger={danger} />
      </form>
    </DialogFrame>
  );
}
