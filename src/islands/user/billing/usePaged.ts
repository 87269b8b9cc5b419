import { useCallback, useEffect, useState } from 'react';
import type { Page } from './api.ts';

/** A keyset-paged list: the first page on mount (and when `key` changes), "more" appends the next. */
export function usePaged<T>(load: (cursor: string | null) => Promise<Page<T>>, key = '') {
  const [rows, setRows] = useState<T[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');
  const fetchPage = useCallback(async (from: string | null) => {
    setLoading(true);
    setError('');
    try {
      const page = await load(from);
      setRows((prev) => (from && prev ? [...prev, ...page.data] : page.data));
      setCursor(page.meta.next_cursor);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setLoading(false);
    }
  }, [key]);
  useEffect(() => {
    setRows(null);
    void fetchPage(null);
  }, [fetchPage]);
  return { rows, loading, error, more: cursor ? () => void fetchPage(cursor) : null, reload: () => void fetchPage(null) };
}
