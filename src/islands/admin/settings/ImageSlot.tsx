import { ImageUp, Trash2 } from 'lucide-react';
import { useId, useRef } from 'react';
import { useT } from '../../../stores/i18n.ts';

/**
 * One uploaded image of the appearance tab (a logo or the icon): its preview on the background it
 * shows on, the upload button (the file is checked on the server) and removing it.
 */
export function ImageSlot({ name, label, hint, url, preview, fallback, busy, error, onPick, onRemove }: {
  /** The setting it fills (`logo_horizontal`, …), for tests to find its file input. */
  name: string;
  label: string;
  hint: string;
  url: string;
  preview: 'light' | 'dark' | 'icon';
  fallback: string;
  busy: boolean;
  error?: string | undefined;
  onPick: (file: File) => void;
  onRemove: () => void;
}) {
  const t = useT();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const frame =
    preview === 'icon'
      ? 'size-16 rounded-control border border-border bg-surface-2'
      : `h-16 w-full sm:w-48 rounded-control border ${preview === 'dark' ? 'border-[#2a2f3a] bg-[#0f1115] text-[#9aa3b2]' : 'border-[#e3e6eb] bg-white text-[#5b6474]'}`;
  return (
    <div className="flex flex-col gap-4 border-b border-border py-4 first:pt-0 last:border-b-0 last:pb-0 sm:flex-row sm:items-center">
      <div className={`grid shrink-0 place-items-center overflow-hidden p-2 ${frame}`}>
        {url ? (
          <img src={url} alt={t('admin_settings.current_image', { name: label })} className={preview === 'icon' ? 'size-8 object-contain' : 'max-h-10 max-w-full object-contain'} />
        ) : preview === 'icon' ? (
          <img src="/favicon.svg" alt={fallback} className="size-8" />
        ) : (
          <span className="px-2 text-center text-xs">{fallback}</span>
        )}
      </div>
      <div className="min-w-0 flex-1">
        <p id={`${id}-label`} className="text-sm font-semibold">
          {label}
        </p>
        <p id={`${id}-hint`} className="mt-0.5 text-sm text-muted">
          {hint}
        </p>
        {error && (
          <p id={`${id}-error`} className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" className="btn-secondary px-3 py-1.5 text-sm" disabled={busy} aria-label={t('admin_settings.upload_image', { name: label })} aria-describedby={`${id}-hint`} onClick={() => input.current?.click()}>
            <ImageUp size={16} aria-hidden />
            {t('admin_settings.upload')}
          </button>
          {url && (
            <button type="button" className="btn-secondary px-3 py-1.5 text-sm" disabled={busy} aria-label={t('admin_settings.remove_image', { name: label })} onClick={onRemove}>
              <Trash2 size={16} aria-hidden />
              {t('admin_settings.remove')}
            </button>
          )}
        </div>
        <input
          ref={input}
          type="file"
          hidden
          data-testid={`upload-${name}`}
          aria-labelledby={`${id}-label`}
          accept="image/png,image/jpeg,image/webp"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) onPick(file);
          }}
        />
      </div>
    </div>
  );
}
