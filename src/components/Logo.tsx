import { useStore } from '@nanostores/react';
import { $config } from '../stores/config.ts';

export function Logo() {
  const config = useStore($config);
  return (
    <span className="inline-flex items-center gap-2.5 text-lg font-bold tracking-tight text-text">
      <svg width="30" height="30" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="9" fill="var(--brand)" />
        <path d="M10 21.5h12.2a4.3 4.3 0 0 0 .6-8.56A6 6 0 0 0 11.3 14a3.8 3.8 0 0 0-1.3 7.5Z" fill="var(--on-brand)" />
      </svg>
      {config?.app.name}
    </span>
  );
}
