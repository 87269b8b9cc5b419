import { useStore } from '@nanostores/react';
import { CircleAlert, CircleCheck, X } from 'lucide-react';
import { ApiError } from '../../stores/api.ts';
import { $toasts, dismissToast, showAlert } from '../../stores/ui.ts';
import { useT } from '../../stores/i18n.ts';

/** Success and danger toasts, top right, newest on top, at most three, each gone after 6 s (SPEC §9). */
export function Toasts() {
  const toasts = useStore($toasts);
  const t = useT();
  return (
    <div aria-live="polite" className="pointer-events-none fixed inset-x-4 top-4 z-50 flex flex-col items-end gap-2 sm:left-auto sm:right-6 sm:top-6">
      {[...toasts].reverse().map((item) => (
        <div
          key={item.id}
          role={item.type === 'danger' ? 'alert' : 'status'}
          data-testid="toast"
          className="pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-card border border-border bg-surface px-4 py-3 text-sm shadow-lg"
        >
          {item.type === 'success' ? <CircleCheck className="mt-0.5 size-5 shrink-0 text-success" aria-hidden /> : <CircleAlert className="mt-0.5 size-5 shrink-0 text-danger" aria-hidden />}
          <p className="flex-1 pt-0.5 font-medium">{item.message}</p>
          {item.undo && (
            <button
              type="button"
              className="rounded-md px-1.5 py-0.5 font-semibold text-brand hover:bg-brand-soft"
              onClick={() => {
                dismissToast(item.id);
                void item.undo!().catch((error: unknown) => showAlert({ title: t('popup_error.title'), message: error instanceof ApiError ? error.message : t('popup_error.message') }));
              }}
            >
              {t('app.undo')}
            </button>
          )}
          <button type="button" onClick={() => dismissToast(item.id)} className="rounded-md p-0.5 text-muted hover:text-text" aria-label={t('app.dismiss')}>
            <X className="size-4" aria-hidden />
          </button>
        </div>
      ))}
    </div>
  );
}
