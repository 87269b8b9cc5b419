import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $config } from '../stores/config.ts';

/** Sets the document title for an in-app page, as a page load would (and again when the app is renamed). */
export function useTitle(title: string): void {
  const app = useStore($config)?.app.name ?? '';
  useEffect(() => {
    document.title = title ? `${title} · ${app}` : app;
  }, [title, app]);
}
