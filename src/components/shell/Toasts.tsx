import { useStore } from '@nanostores/react';
import { CircleAlert, CircleCheck, X } from 'lucide-react';
import { useLayoutEffect, useRef, useState } from 'react';
import { ApiError } from '../../stores/api.ts';
import { $bottomPanels, $toasts, dismissToast, showAlert, toastLift } from '../../stores/ui.ts';
import { useT } from '../../stores/i18n.ts';

/** Space between the toasts and a bottom panel under them. */
const GAP = 12;

/**
 * Success and danger toasts (SPEC §9: at most three, each gone after 6 s) at the bottom, away from
 * the toolbars at the top: bottom right on wide screens, bottom centre and nearly full width on a
 * phone, the newest nearest the edge, above the upload queue or cookie notice when one is under them.
 */
export function Toasts() {
  const toasts = useStore($toasts);
  const panels = useStore($bottomPanels);
  const t = useT();
  const column = useRef<HTMLDivElement>(null);
  const [lift, setLift] = useState(0);

  const showing = toasts.length > 0;
  useLayoutEffect(() => {
    const el = column.current;
    // With no toast on screen or no panel under the column there is nothing to lift, and measuring
    // would force a layout in the middle of the app's first render.
    if (!el || !showing || Object.keys(panels).length === 0) {
      setLift(0);
      return;
    }
    const measure = () => {
      const { left, right } = el.getBoundingClientRect();
      setLift(toastLift({ left, right }, Object.values(panels), window.innerHeight, GAP));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [panels, showing]);

  return (
    <div
      ref={column}
      aria-live="polite"
      data-testid="toasts"
      // Above the home indicator on phones; above a bottom panel when one is under the column.
      style={lift ? { bottom: lift } : undefined}
      className="pointer-events-none fixed inset-x-4 bottom-[max(1rem,env(safe-area-inset-bottom))] z-50 flex flex-col items-center gap-2 sm:right-6 sm:bottom-6 sm:left-auto sm:w-96 sm:items-end"
    >
      {toasts.map((item) => (
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
