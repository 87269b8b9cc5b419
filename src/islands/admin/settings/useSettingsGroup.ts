import { useEffect, useState } from 'react';
import { ApiError } from '../../../stores/api.ts';
import { useT } from '../../../stores/i18n.ts';
import { toast } from '../../../stores/ui.ts';
import { loadGroup, saveGroup, showSavedInPage, type Group, type GroupDocument } from './api.ts';

type Attributes<D extends GroupDocument> = D['data']['attributes'];

/**
 * One settings tab's form: loads its group, holds the edited values, and saves the fields that
 * differ from what was loaded. Field errors of a refusal show under their fields (`error(name)`);
 * a refusal of no field shown here, or a failed load, goes to `message`.
 */
export function useSettingsGroup<D extends GroupDocument>(group: Group) {
  const t = useT();
  const [saved, setSaved] = useState<D | null>(null);
  const [values, setValues] = useState<Attributes<D> | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    loadGroup<D>(group)
      .then((doc) => {
        if (!live) return;
        setSaved(doc);
        setValues(doc.data.attributes);
      })
      .catch((error: unknown) => live && setMessage(error instanceof Error ? error.message : String(error)));
    return () => {
      live = false;
    };
  }, [group]);

  const set = <K extends keyof Attributes<D>>(name: K, value: Attributes<D>[K]) => setValues((v) => (v ? { ...v, [name]: value } : v));

  const changes = (): Record<string, unknown> => {
    if (!saved || !values) return {};
    const before = saved.data.attributes as Record<string, unknown>;
    return Object.fromEntries(Object.entries(values).filter(([key, value]) => JSON.stringify(before[key]) !== JSON.stringify(value)));
  };

  /** A group the server answered after a change made elsewhere on the tab (an image upload). */
  const accept = (doc: D, keepEdits = true) => {
    const edits = keepEdits ? changes() : {};
    setSaved(doc);
    setValues({ ...doc.data.attributes, ...edits } as Attributes<D>);
    showSavedInPage(doc);
  };

  /** Shows a refusal: under its fields when they are on the form, else as the tab's message. */
  const refused = (error: unknown, fields: string[] = Object.keys(values ?? {})) => {
    if (error instanceof ApiError && Object.keys(error.errors).length) {
      const byField: Record<string, string[]> = {};
      const elsewhere: string[] = [];
      for (const [key, list] of Object.entries(error.errors)) {
        const field = fields.find((f) => key === f || key.startsWith(`${f}.`));
        if (field) (byField[key] ??= []).push(...list);
        else elsewhere.push(list[0] ?? '');
      }
      setErrors(byField);
      setMessage(elsewhere.join(' '));
    } else {
      setErrors({});
      setMessage(error instanceof Error ? error.message : String(error));
    }
  };

  const save = async (extra: Record<string, unknown> = {}) => {
    setBusy(true);
    setErrors({});
    setMessage('');
    try {
      const doc = await saveGroup<D>(group, { ...changes(), ...extra });
      accept(doc, false);
      toast('success', t('admin_settings.saved'));
      return doc;
    } catch (error) {
      refused(error, [...Object.keys(values ?? {}), ...Object.keys(extra)]);
      return null;
    } finally {
      setBusy(false);
    }
  };

  /** The first error of a field, or of any entry inside it (`home_features.1.title` for `home_features`). */
  const error = (name: string) => errors[name]?.[0] ?? Object.entries(errors).find(([key]) => key.startsWith(`${name}.`))?.[1][0];

  return { saved, values, set, errors, error, message, busy, setBusy, dirty: Object.keys(changes()).length > 0, changes, save, accept, refused };
}
