import { useEffect } from 'react';
import { $config } from '../stores/config.ts';

/** Sets the document title for an in-app page, as a page load would. */
export function useTitle(title: string): void {
  useEffect(() => {
    const app = $config.get()?.app.name ?? '';
    document.title = title ? `${title} · ${app}` : app;
  }, [title]);
}
