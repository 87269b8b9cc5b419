import { RotateCw } from 'lucide-react';
import { useT } from '../stores/i18n.ts';
import { Spinner } from './Spinner.tsx';

/** A card-sized spinner while a screen's data loads. */
export function LoadingCard() {
  const t = useT();
  return (
    <div className="card flex justify-center py-16">
      <Spinner label={t('app.loading')} />
    </div>
  );
}

/** A card saying the data did not load, why (when known), and a button to try again. */
export function LoadFailedCard({ title, detail, retryLabel, onRetry }: { title: string; detail?: string; retryLabel: string; onRetry: () => void }) {
  return (
    <div className="card flex flex-col items-start gap-4 p-6">
      <div role="alert" className="notice-danger w-full">
        <p className={detail ? 'font-semibold' : undefined}>{title}</p>
        {detail && <p>{detail}</p>}
      </div>
      <button type="button" className="btn-secondary" onClick={onRetry}>
        <RotateCw className="size-4" aria-hidden />
        {retryLabel}
      </button>
    </div>
  );
}
