import { useEffect, useRef, useState } from 'react';
import { api, ApiError } from '../../../stores/api.ts';

/** How long typing must pause before the preview is asked for: one request per pause, not per key. */
const PREVIEW_DELAY_MS = 250;

/**
 * The Markdown rendered by the server's own renderer (POST /api/admin/pages/preview), so the preview
 * is the public page's HTML byte for byte. The last preview stays shown while the next one loads,
 * and an answer that arrives after a newer request was sent is dropped.
 */
export function usePreview(content: string | null): { html: string | null; updating: boolean; error: string } {
  const [html, setHtml] = useState<string | null>(null);
  const [updating, setUpdating] = useState(false);
  const [error, setError] = useState('');
  const latest = useRef(0);
  const first = useRef(true);

  useEffect(() => {
    if (content === null) return;
    const request = ++latest.current;
    setUpdating(true);
    const run = () => {
      api
        .post<{ data: { html: string } }>('/api/admin/pages/preview', { content })
        .then((res) => {
          if (request !== latest.current) return;
          setHtml(res.data.html);
          setError('');
        })
        .catch((err: unknown) => {
          if (request === latest.current) setError(err instanceof ApiError ? err.message : String(err));
        })
        .finally(() => {
          if (request === latest.current) setUpdating(false);
        });
    };
    // The page's saved text renders at once; what is typed after waits for a pause.
    if (first.current) {
      first.current = false;
      run();
      return;
    }
    const timer = setTimeout(run, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [content]);

  return { html, updating, error };
}
