import { useEffect, useRef, useState } from 'react';
import { api, ApiError } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import { dismissToast, toast } from '../../../stores/ui.ts';

/**
 * One settings tab's data: loaded from its endpoint, saved back with PUT; field errors (422) are
 * kept by field name (`social.google.client_id`) and every refusal is also a toast.
 */
export function useSettingsTab<T>(path: string, savedMessage: string) {
  const t = useT();
  const [data, setData] = useState<T | null>(null);
  const [loadError, setLoadError] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  // The last refusal's toast goes when the form is sent again: it no longer describes the form.
  const refusal = useRef<number | null>(null);

  useEffect(() => {
    api
      .get<{ data: T }>(path)
      .then((res) => setData(res.data))
      .catch((err: unknown) => setLoadError(err instanceof Error ? err.message : String(err)));
  }, [path]);

  const save = async (body: Record<string, unknown>): Promise<T | null> => {
    setBusy(true);
    setErrors({});
    if (refusal.current !== null) dismissToast(refusal.current);
    try {
      const res = await api.post<{ data: T }>(path, { ...body, _method: 'put' });
      setData(res.data);
      toast('success', t(savedMessage));
      return res.data;
    } catch (error) {
      // The field's own message shows under it; the toast says so even when it is scrolled away.
      if (error instanceof ApiError && error.status === 422) setErrors(error.errors);
      refusal.current = toast('danger', error instanceof Error ? error.message : String(error));
      return null;
    } finally {
      setBusy(false);
    }
  };

  return { data, loadError, errors, error: (field: string) => errors[field]?.[0], busy, save };
}
