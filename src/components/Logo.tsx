import { useStore } from '@nanostores/react';
import { $config } from '../stores/config.ts';

/** The instance's logo (light and dark images from the settings), or the built-in mark with the app name. */
export function Logo() {
  const config = useStore($config);
  const name = config?.app.name ?? '';
  const { horizontal, horizontal_dark: dark } = config?.app.logo ?? { horizontal: '', horizontal_dark: '' };
  if (horizontal) {
    return (
      <span className="inline-flex h-8 items-center" data-testid="logo-image">
        <img src={horizontal} alt={name} height={32} width={160} className={`h-8 w-auto max-w-[200px] object-contain ${dark ? 'dark:hidden' : ''}`} />
        {dark && <img src={dark} alt={name} height={32} width={160} className="hidden h-8 w-auto max-w-[200px] object-contain dark:block" />}
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-2.5 text-lg font-bold tracking-tight text-text">
      <svg width="30" height="30" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="9" fill="var(--brand)" />
        <path d="M10 21.5h12.2a4.3 4.3 0 0 0 .6-8.56A6 6 0 0 0 11.3 14a3.8 3.8 0 0 0-1.3 7.5Z" fill="var(--on-brand)" />
      </svg>
      {name}
    </span>
  );
}
